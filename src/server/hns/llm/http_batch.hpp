#pragma once
// Parallel HTTP POSTs for one decision turn (issue 21): every call of the batch goes out at once
// through libcurl's multi interface, on the calling thread (a match's own thread, never a network
// thread), and the call returns when all have answered, the timeout passed, or `stop()` is true.
// TLS peers and host names are verified; only http and https; no redirects.
#include <chrono>
#include <functional>
#include <vector>

#include "server/hns/llm/llm_reply.hpp"
#include "server/hns/llm/llm_settings.hpp"

namespace hschool::server::hns {

// How often a wait looks at `stop()`: a match being stopped is let go within this.
inline constexpr std::chrono::milliseconds kHttpBatchStopPoll{50};
// Connecting gets at most this much of an attempt (the rest is for the answer).
inline constexpr std::chrono::milliseconds kHttpConnectTimeout{5000};

// One answer per call, in order. A call still open at the timeout (or the stop) is timed_out.
std::vector<HttpAnswer> run_http_batch(const std::vector<HttpCall>& calls, std::chrono::milliseconds timeout,
                                       const std::function<bool()>& stop);

}  // namespace hschool::server::hns
