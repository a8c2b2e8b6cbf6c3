#pragma once
// What a language model's HTTP answer means for a prompt seat (issue 21; the reference's llm.nim
// textOf and directives.nim extraction): the reply text, or the fallback cause and a bounded,
// UTF-8-safe detail; then the order inside that text. Pure: no I/O, no clock, no credentials.
#include <cstddef>
#include <string>
#include <string_view>

#include "sim/hns/expected.hpp"
#include "sim/hns/orders.hpp"

namespace hschool::server::hns {

// One HTTP call's outcome as the batch saw it.
struct HttpAnswer {
    long status = 0;              // HTTP status; 0 when no answer came
    std::string body;             // at most kMaxLlmBodyBytes
    bool timed_out = false;       // the attempt's deadline passed before the answer was complete
    std::string transport_error;  // non-empty: no answer (refused, DNS, TLS, body too big, ...)
};

// A Messages answer is a few KiB; more than this is not one we read.
inline constexpr std::size_t kMaxLlmBodyBytes = 256 * 1024;
// The reference's caps: fallback.detail in runes, the model's text in bytes before extraction.
inline constexpr int kMaxFallbackDetailRunes = 200;
inline constexpr std::size_t kMaxLlmTextBytes = 4096;
// How much of a reply without JSON the detail quotes (the reference's 160).
inline constexpr int kMaxQuotedReplyRunes = 160;

// The reference's fallback causes beyond decisions.hpp's timeout, parse_error and no_credentials.
inline constexpr const char* kCauseTransportError = "transport_error";
inline constexpr const char* kCauseThrottled = "throttled";
inline constexpr const char* kCauseBudgetGuard = "budget_guard";  // the match's wall clock is nearly spent

struct LlmText {
    bool ok = false;
    std::string text;           // ok: the answer's text blocks, joined
    std::string cause;          // !ok: timeout, transport_error, throttled or parse_error
    std::string detail;         // !ok: why, bounded and UTF-8-safe (never a credential)
    bool auth_failed = false;   // 401/403: the client is off for the rest of the match
    bool model_denied = false;  // ...with Bedrock's "Model access is denied": another model may work
    bool throttled = false;     // 429: a second call this turn would be refused too
};

// Reads one answer: transport failure or timeout, 401/403, 429, another non-2xx, a body that is
// not a Messages object, a refusal, or a reply cut at max_tokens before any '{' are failures.
LlmText read_llm_answer(const HttpAnswer& answer);

// The order in a model's text: cut to kMaxLlmTextBytes on a rune boundary, the first balanced
// JSON object that parses (fences and prose around it are fine), then the order schema. The
// error is the fallback detail ("no JSON object in reply: ...").
sim::hns::Expected<sim::hns::ParsedOrder> read_llm_order(std::string_view text, const sim::hns::OrderContext& ctx);

// `text` as a one-line detail: invalid UTF-8 becomes U+FFFD, control characters spaces, then cut
// to `max_runes` on a rune boundary.
std::string safe_detail(std::string_view text, int max_runes = kMaxFallbackDetailRunes);

}  // namespace hschool::server::hns
