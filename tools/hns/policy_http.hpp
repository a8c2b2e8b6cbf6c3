#pragma once
// One JSON POST to a numeric player's policy service (libcurl: http and https, peers verified, no
// redirects), bounded by a timeout. libcurl lives in the .cpp.
#include <optional>
#include <string>

namespace hschool::tools::hns {

struct PolicyReply {
    int status = 0;
    std::string body;
};

// The reply, or nothing with `error` set (refused, timed out, an answer over the size limit).
std::optional<PolicyReply> post_policy(const std::string& url, const std::string& bearer_key, const std::string& body,
                                       int timeout_seconds, std::string& error);

}  // namespace hschool::tools::hns
