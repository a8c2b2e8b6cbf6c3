#include "server/hns/llm/llm_reply.hpp"

#include <boost/json.hpp>

#include "server/hns/contract/decisions.hpp"

namespace hschool::server::hns {
namespace {

namespace json = boost::json;
namespace sh = sim::hns;

// The length of the valid UTF-8 sequence at text[i], or 0 when it is not one (overlong forms,
// surrogates and code points past U+10FFFF included).
std::size_t utf8_sequence(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char c = byte(i);
    if (c < 0x80) return 1;
    std::size_t n = 0;
    char32_t cp = 0;
    if (c >= 0xC2 && c <= 0xDF) n = 2, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF) n = 3, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4) n = 4, cp = c & 0x07;
    else return 0;
    if (i + n > text.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (byte(i + k) & 0x3F);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

// The longest prefix of at most `max_bytes` that ends on a sequence boundary.
std::string_view cut_bytes(std::string_view text, std::size_t max_bytes) {
    if (text.size() <= max_bytes) return text;
    std::size_t end = max_bytes;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
    return text.substr(0, end);
}

LlmText fail(const char* cause, std::string detail) {
    LlmText out;
    out.cause = cause;
    out.detail = safe_detail(detail);
    return out;
}

// The first bytes of a provider body, for a detail.
std::string quote(std::string_view body) { return safe_detail(body, kMaxFallbackDetailRunes); }

}  // namespace

std::string safe_detail(std::string_view text, int max_runes) {
    std::string out;
    int runes = 0;
    for (std::size_t i = 0; i < text.size() && runes < max_runes;) {
        const std::size_t n = utf8_sequence(text, i);
        if (n == 0) {
            out += "\xEF\xBF\xBD";  // U+FFFD for one bad byte
            ++i;
        } else if (n == 1) {
            const char c = text[i];
            out.push_back(static_cast<unsigned char>(c) < 0x20 || c == 0x7F ? ' ' : c);
            ++i;
        } else {
            out.append(text.substr(i, n));
            i += n;
        }
        ++runes;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    std::size_t lead = 0;
    while (lead < out.size() && out[lead] == ' ') ++lead;
    return out.substr(lead);
}

LlmText read_llm_answer(const HttpAnswer& answer) {
    if (answer.timed_out) return fail(kCauseTimeout, "no answer before the attempt's deadline");
    if (!answer.transport_error.empty()) return fail(kCauseTransportError, "llm transport: " + answer.transport_error);
    const long status = answer.status;
    if (status == 401 || status == 403) {
        LlmText out = fail(kCauseParseError, "llm auth failed (" + std::to_string(status) + "): " + quote(answer.body));
        out.auth_failed = true;
        out.model_denied = answer.body.find("Model access is denied") != std::string::npos;
        return out;
    }
    if (status == 429) {
        LlmText out = fail(kCauseThrottled, "llm throttled (429): " + quote(answer.body));
        out.throttled = true;
        return out;
    }
    if (status < 200 || status >= 300)
        return fail(kCauseParseError, "llm error " + std::to_string(status) + ": " + quote(answer.body));
    json::error_code ec;
    const json::value payload = json::parse(answer.body, ec);
    if (ec || !payload.is_object()) return fail(kCauseParseError, "llm answer is not a JSON object: " + quote(answer.body));
    const json::object& o = payload.as_object();
    const json::value* stop = o.if_contains("stop_reason");
    const std::string_view stop_reason = stop && stop->is_string() ? std::string_view(stop->as_string()) : std::string_view{};
    if (stop_reason == "refusal") return fail(kCauseParseError, "llm refusal");
    LlmText out;
    if (const json::value* content = o.if_contains("content"); content && content->is_array()) {
        for (const json::value& block : content->as_array()) {
            if (!block.is_object()) continue;
            const json::value* type = block.as_object().if_contains("type");
            const json::value* text = block.as_object().if_contains("text");
            if (type && type->is_string() && type->as_string() == "text" && text && text->is_string()) {
                out.text.append(text->as_string());
                if (out.text.size() > kMaxLlmBodyBytes) break;  // bounded by the body already; belt and braces
            }
        }
    }
    if (stop_reason == "max_tokens" && out.text.find('{') == std::string::npos)
        return fail(kCauseParseError, "reply cut off at max_tokens before any JSON: " +
                                          safe_detail(out.text, kMaxQuotedReplyRunes));
    out.ok = true;
    return out;
}

sh::Expected<sh::ParsedOrder> read_llm_order(std::string_view text, const sh::OrderContext& ctx) {
    using R = sh::Expected<sh::ParsedOrder>;
    const std::string_view kept = cut_bytes(text, kMaxLlmTextBytes);
    auto object = sh::extract_json_object(kept);
    if (!object) return R::fail(safe_detail("no JSON object in reply: " + safe_detail(kept, kMaxQuotedReplyRunes)));
    auto parsed = sh::parse_order(*object, ctx);
    if (!parsed) return R::fail(safe_detail("reply is not an order: " + safe_detail(parsed.error, kMaxQuotedReplyRunes)));
    return parsed;
}

}  // namespace hschool::server::hns
