#pragma once
// A numeric player's turn (issue 41; the reference's numeric_policy.nim): from the game's decision
// message, the POST body for the seat's policy service — {"session","seat","decision_id",
// "values" (356 numbers),"action_mask" (107 booleans)} — and from the service's answer
// {"actions":[index]} the catalog order to send. No sockets: the seat program does the HTTP.
// Everything that comes in is untrusted: a malformed decision or answer is an error, never a crash.
#include <string>
#include <string_view>

#include "sim/hns/expected.hpp"
#include "sim/hns/order_catalog.hpp"

namespace hschool::tools::hns {

namespace sh = hschool::sim::hns;

// The service is given the decision's deadline less this, in whole seconds, and at least one.
inline constexpr int kNumericDeadlineMarginMs = 1000;
inline constexpr int kMinNumericTimeoutSeconds = 1;
// decision_id = (game - 1) * this + turn: unique across an episode's games.
inline constexpr int kNumericGameStride = 1'000'000;
// An answer is {"actions":[n]}: anything longer is not a policy's.
inline constexpr std::size_t kMaxNumericAnswerBytes = 64 * 1024;

struct NumericAsk {
    std::string body;           // the POST body
    sh::OrderCatalog catalog{};  // what the answer's index picks from
    int timeout_seconds = kMinNumericTimeoutSeconds;
};

sh::Expected<NumericAsk> numeric_ask(std::string_view decision_json, std::string_view session);
// The order JSON for the answer's index; the error names what was wrong with the answer.
sh::Expected<std::string> numeric_order(const NumericAsk& ask, int http_status, std::string_view answer_body);

}  // namespace hschool::tools::hns
