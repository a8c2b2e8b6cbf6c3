// libFuzzer: a language model's HTTP answer for a prompt seat (issue 21) — the Messages body, the
// order in its text, and the fallback detail, which must always be bounded valid UTF-8.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "server/hns/llm/llm_reply.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace hns = hschool::server::hns;
    static const hschool::sim::hns::OrderContext ctx = [] {
        hschool::sim::hns::OrderContext c;
        c.objectIds = {"box1", "pan1", "ramp1"};
        c.rampIds = {"ramp1"};
        c.anchorIds = {"p1", "d1"};
        return c;
    }();
    if (size == 0) return 0;
    // The first byte picks the status, so 401/403/429/5xx bodies are fuzzed too.
    static constexpr long kStatuses[] = {200, 200, 200, 401, 403, 429, 500, 302};
    const long status = kStatuses[data[0] % 8];
    const std::string body(reinterpret_cast<const char*>(data + 1), size - 1);
    const hns::LlmText text = hns::read_llm_answer(hns::HttpAnswer{status, body, false, {}});
    const std::string detail = text.ok ? hns::read_llm_order(text.text, ctx).error : text.detail;
    (void)hns::read_llm_order(body, ctx);
    // Bounded and valid: cleaning it again changes nothing.
    if (hns::safe_detail(detail, 1 << 20) != detail) std::abort();
    return 0;
}
