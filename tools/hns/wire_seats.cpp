#include "wire_seats.hpp"

#include <boost/json.hpp>

#include <vector>

#include "sim/hns/constants.hpp"
#include "sim/hns/reference_seats.hpp"

namespace hschool::tools::hns {
namespace {

namespace json = boost::json;
namespace sh = hschool::sim::hns;

// RandomSeat's choices, in its order (reference_seats.cpp).
enum Choice : int { kMoveTo, kHide, kWatch, kPush, kLock, kChase, kChoices };

const json::value* field(const json::value* v, const char* key) {
    return v != nullptr && v->is_object() ? v->as_object().if_contains(key) : nullptr;
}

std::int64_t int_of(const json::value* v, std::int64_t otherwise) { return v != nullptr && v->is_int64() ? v->as_int64() : otherwise; }

std::string string_of(const json::value* v) { return v != nullptr && v->is_string() ? std::string(v->as_string()) : std::string(); }

json::array point(std::int64_t x, std::int64_t y) { return json::array{x, y}; }

}  // namespace

std::optional<std::string> random_order_json(const std::string& decision, std::int64_t seed) {
    boost::system::error_code ec;
    const json::value frame = json::parse(decision, ec);
    if (ec || string_of(field(&frame, "type")) != "decision") return std::nullopt;
    const json::value* observation = field(&frame, "observation");
    const int slot = static_cast<int>(int_of(field(&frame, "seat"), 0));
    const int turn = static_cast<int>(int_of(field(&frame, "turn"), 0));
    const int game = static_cast<int>(int_of(field(observation, "game"), 1)) - 1;  // the observation counts from 1
    const bool hider = string_of(field(observation, "role")) == "hider";
    int draw = 0;
    auto pick = [&](std::size_t n) {
        return static_cast<std::int64_t>(sh::random_seat_draw(seed, game, slot, turn, draw++) % static_cast<std::uint64_t>(n));
    };
    std::vector<std::string> touchable;  // Sim::may_touch: unlocked, or locked by this seat's side
    if (const auto* objects = field(observation, "objects"); objects && objects->is_array())
        for (const auto& o : objects->as_array()) {
            const std::string locked = string_of(field(&o, "locked"));
            if (locked == "none" || locked == (hider ? "hiders" : "seekers")) touchable.push_back(string_of(field(&o, "id")));
        }
    std::vector<const json::value*> pockets;
    if (const auto* list = field(field(observation, "room"), "pockets"); list && list->is_array())
        for (const auto& p : list->as_array()) pockets.push_back(&p);

    json::object order;
    std::int64_t toX = pick(sh::kMapWidth), toY = pick(sh::kMapHeight);
    const auto choice = pick(kChoices);
    if (choice == kHide && !pockets.empty()) {
        const json::value& pocket = *pockets[static_cast<std::size_t>(pick(pockets.size()))];
        const auto* at = field(&pocket, "at");
        if (at && at->is_array() && at->as_array().size() == 2) {
            toX = int_of(&at->as_array()[0], toX);
            toY = int_of(&at->as_array()[1], toY);
        }
        order["intent"] = "hide";
        order["at"] = string_of(field(&pocket, "id"));
    } else if (choice == kWatch) {
        order["intent"] = "watch";
        order["face"] = point(toX, toY);
    } else if ((choice == kPush || choice == kLock) && !touchable.empty()) {
        order["intent"] = choice == kPush ? "push" : "lock";
        order["object"] = touchable[static_cast<std::size_t>(pick(touchable.size()))];
    } else {
        order["intent"] = choice == kChase ? "chase" : "move_to";
    }
    order["to"] = point(toX, toY);
    return json::serialize(order);
}

}  // namespace hschool::tools::hns
