#pragma once
// One JSON POST to a numeric player's policy service (libcurl: http and https, peers verified, no
// redirects), bounded by a timeout. libcurl lives in the .cpp.
#include <string>

#include "sim/hns/expected.hpp"

namespace hschool::tools::hns {

namespace sh = hschool::sim::hns;

struct PolicyReply {
    int status = 0;
    std::string body;
};

// The reply, or why there is none (refused, timed out, an answer over the size limit).
sh::Expected<PolicyReply> post_policy(const std::string& url, const std::string& bearer_key, const std::string& body,
                                      int timeout_seconds);

}  // namespace hschool::tools::hns
