#include "sim/hns/orders.hpp"

#include <boost/json.hpp>
#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace hschool::sim::hns {
namespace json = boost::json;
namespace {

constexpr const char* kIntentNames[] = {"move_to", "hide", "watch", "chase", "push", "lock", "unlock", "vault"};
constexpr double kCoordLimit = 1.0e9;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::string strip(std::string_view s) {
    std::size_t a = 0, b = s.size();
    while (a < b && is_space(s[a])) ++a;
    while (b > a && is_space(s[b - 1])) --b;
    return std::string(s.substr(a, b - a));
}

// One coordinate: an int, a float, or a numeric string, truncated toward zero.
bool read_coord(const json::value* v, int& out) {
    if (v == nullptr) return false;
    double d = 0;
    if (v->is_int64()) {
        const auto n = v->as_int64();
        out = static_cast<int>(std::clamp<std::int64_t>(n, -1000000000, 1000000000));
        return true;
    }
    if (v->is_uint64()) return out = 1000000000, true;
    if (v->is_double()) d = v->as_double();
    else if (v->is_string()) {
        const std::string s = strip(v->as_string());
        char* end = nullptr;
        d = std::strtod(s.c_str(), &end);
        if (s.empty() || end != s.c_str() + s.size()) return false;
    } else {
        return false;
    }
    if (!(d == d) || d > kCoordLimit || d < -kCoordLimit) return false;
    out = static_cast<int>(d);
    return true;
}

bool read_point(const json::value* v, int maxX, int maxY, int& x, int& y) {
    if (v == nullptr || v->is_null()) return false;
    int rx = 0, ry = 0;
    bool okx = false, oky = false;
    if (v->is_array() && v->as_array().size() >= 2) {
        okx = read_coord(&v->as_array()[0], rx);
        oky = read_coord(&v->as_array()[1], ry);
    } else if (v->is_object()) {
        okx = read_coord(v->as_object().if_contains("x"), rx);
        oky = read_coord(v->as_object().if_contains("y"), ry);
    }
    if (!okx || !oky) return false;
    x = std::clamp(rx, 0, std::max(0, maxX));
    y = std::clamp(ry, 0, std::max(0, maxY));
    return true;
}

std::string str_of(const json::object& o, const char* key) {
    const json::value* v = o.if_contains(key);
    return v != nullptr && v->is_string() ? std::string(v->as_string()) : std::string();
}

}  // namespace

const char* intent_text(Intent i) { return kIntentNames[static_cast<int>(i)]; }

std::string truncate_runes(std::string_view text, int limit) {
    if (limit <= 0) return {};
    int runes = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if ((c & 0xC0) != 0x80) {
            if (runes == limit) return std::string(text.substr(0, i));
            ++runes;
        }
    }
    return std::string(text);
}

std::string sanitize_say(std::string_view text) {
    std::string out;
    // Braces are dropped: control records on the chat stream start with '{'.
    for (unsigned char c : truncate_runes(text, kMaxSayRunes))
        if (c >= 32 && c < 127 && c != '{' && c != '}') out.push_back(static_cast<char>(c));
    return strip(out);
}

std::string sanitize_line(std::string_view text, int limit) {
    std::string s(text);
    for (char& c : s)
        if (c == '\n' || c == '\r') c = ' ';
    return truncate_runes(strip(s), limit);
}

Expected<std::string> extract_json_object(std::string_view text) {
    if (text.size() > kMaxReplyBytes) return Expected<std::string>::fail("reply: longer than 4096 bytes");
    int depth = 0;
    std::size_t start = std::string_view::npos;
    bool inString = false, escaped = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        if (inString) {
            if (escaped) escaped = false;
            else if (ch == '\\') escaped = true;
            else if (ch == '"') inString = false;
            continue;
        }
        if (ch == '"') {
            inString = true;
        } else if (ch == '{') {
            if (depth == 0) start = i;
            ++depth;
        } else if (ch == '}' && depth > 0) {
            --depth;
            if (depth == 0 && start != std::string_view::npos) {
                boost::system::error_code ec;
                const auto candidate = text.substr(start, i - start + 1);
                (void)json::parse(candidate, ec);
                if (!ec) return Expected<std::string>::ok(std::string(candidate));
                start = std::string_view::npos;
            }
        }
    }
    return Expected<std::string>::fail("reply: no JSON object");
}

Order resolve_reply(const Order* standing, const ParsedOrder& reply, const Order& fallback, bool& rejected) {
    rejected = reply.rejected;
    if (reply.order.fromReply && !reply.rejected) return reply.order;
    Order kept = standing != nullptr ? *standing : fallback;
    kept.say = reply.order.say;
    kept.radio = reply.order.radio;
    kept.notes = reply.order.notes;
    return kept;
}

Expected<ParsedOrder> parse_order(std::string_view text, const OrderContext& ctx) {
    using R = Expected<ParsedOrder>;
    if (text.size() > kMaxReplyBytes) return R::fail("order: longer than 4096 bytes");
    boost::system::error_code ec;
    json::value v = json::parse(text, ec);
    if (ec || !v.is_object()) return R::fail("order: reply is not a JSON object");
    const json::object& o = v.as_object();
    ParsedOrder p;
    Order& order = p.order;
    order.say = sanitize_say(str_of(o, "say"));
    order.radio = sanitize_line(str_of(o, "radio"), kMaxRadioRunes);
    order.notes = sanitize_line(str_of(o, "notes"), kMaxNoteRunes);
    const std::string intentRaw = strip(str_of(o, "intent"));
    if (intentRaw.empty()) return R::ok(std::move(p));  // usable: keeps the standing order
    std::string key = truncate_runes(intentRaw, kMaxIntentRunes);
    for (char& c : key) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (c == '-' || c == ' ') c = '_';
    }
    order.intent = Intent::Watch;
    for (int i = 0; i < 8; ++i)
        if (key == kIntentNames[i]) order.intent = static_cast<Intent>(i);
    order.fromReply = true;
    order.hasTo = read_point(o.if_contains("to"), ctx.maxX, ctx.maxY, order.toX, order.toY);
    order.hasFace = read_point(o.if_contains("face"), ctx.maxX, ctx.maxY, order.faceX, order.faceY);
    const std::string at = truncate_runes(strip(str_of(o, "at")), kMaxAnchorIdRunes);
    for (const auto& id : ctx.anchorIds)
        if (!at.empty() && id == at) order.at = at;
    const std::string obj = truncate_runes(strip(str_of(o, "object")), kMaxObjectIdRunes);
    for (const auto& id : ctx.objectIds)
        if (!obj.empty() && id == obj) order.obj = obj;
    const bool needsObject = order.intent == Intent::Push || order.intent == Intent::Lock ||
                             order.intent == Intent::Unlock || order.intent == Intent::Vault;
    if (needsObject) {
        if (order.obj.empty()) p.rejected = true;
        else if (order.intent == Intent::Vault) {
            bool ramp = false;
            for (const auto& id : ctx.rampIds) ramp = ramp || id == order.obj;
            p.rejected = !ramp;
        }
    }
    return R::ok(std::move(p));
}

}  // namespace hschool::sim::hns
