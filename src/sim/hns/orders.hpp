#pragma once
// A seat's order (spec §3.15, the reference's directives.nim): the closed intent set and the
// tolerant reply parser that repairs fields instead of rejecting, except an unknown or illegal
// object, which rejects the order (the seat keeps its standing order).
#include <string>
#include <string_view>
#include <vector>

#include "sim/hns/expected.hpp"

namespace hschool::sim::hns {

enum class Intent : int { MoveTo, Hide, Watch, Chase, Push, Lock, Unlock, Vault };
const char* intent_text(Intent i);

struct Order {
    Intent intent = Intent::Watch;
    std::string obj;  // dealt object id or ""
    bool hasTo = false;
    int toX = 0, toY = 0;
    std::string at;   // anchor, door or region id; wins over `to`
    bool hasFace = false;
    int faceX = 0, faceY = 0;
    std::string say, radio, notes;
    bool fromReply = false;  // false: the reply carried no intent (keep the standing order)
};

inline constexpr int kMaxIntentRunes = 12;
inline constexpr int kMaxObjectIdRunes = 8;
inline constexpr int kMaxAnchorIdRunes = 4;
inline constexpr int kMaxSayRunes = 10;
inline constexpr int kMaxRadioRunes = 96;
inline constexpr int kMaxNoteRunes = 160;
inline constexpr std::size_t kMaxReplyBytes = 4096;

struct ParsedOrder {
    Order order;
    bool rejected = false;  // unknown_object: the caller keeps the previous order
};

struct OrderContext {
    std::vector<std::string> objectIds, anchorIds, rampIds;
    int maxX = 719, maxY = 399;
};

// Parses one JSON reply object (after extraction). Errors only when it is not a JSON object.
Expected<ParsedOrder> parse_order(std::string_view json_text, const OrderContext& ctx);
// The first balanced {...} outside string literals that parses, as the reference extracts it.
Expected<std::string> extract_json_object(std::string_view reply);

// The decision engine's rule for one reply: a usable order replaces the standing one; a reply
// with no intent, or a rejected one, keeps the standing order (or `fallback`, burrow's, when the
// seat has none) but still delivers its say/radio/notes. Sets `rejected` for unknown_object.
Order resolve_reply(const Order* standing, const ParsedOrder& reply, const Order& fallback, bool& rejected);
inline constexpr const char* kResultUnknownObject = "unknown_object";

std::string truncate_runes(std::string_view text, int limit);
std::string sanitize_say(std::string_view text);
std::string sanitize_line(std::string_view text, int limit);

}  // namespace hschool::sim::hns
