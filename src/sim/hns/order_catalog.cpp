#include "sim/hns/order_catalog.hpp"

#include <boost/json.hpp>
#include <cmath>
#include <limits>
#include <string_view>

#include "sim/hns/float_text.hpp"
#include "sim/hns/nim_json.hpp"

namespace hschool::sim::hns {
namespace json = boost::json;

namespace {

// A view's coordinates are a room's pixels; anything this large is not a view of ours.
constexpr std::int64_t kMaxViewNumber = 1'000'000;
// The teacher's penalty: one point per this many squared pixels between targets.
constexpr std::int64_t kTeacherDistanceDivisor = 10'000;
constexpr int kTeacherNoChoice = -1'000'000;

bool has_object(Intent i) { return i == Intent::Lock || i == Intent::Unlock || i == Intent::Vault || i == Intent::Push; }
bool has_at(Intent i) { return i == Intent::Hide || i == Intent::MoveTo; }

// Reads a seat view with the first missing or mistyped field remembered: every read after a
// failure returns a harmless default, and the caller checks `error` once at the end.
class ViewReader {
public:
    std::string error;

    const json::value* field(const json::object& o, std::string_view key) {
        const json::value* v = o.if_contains(key);
        if (v == nullptr) fail(std::string("missing ") + std::string(key));
        return v;
    }
    const json::object& object(const json::object& o, std::string_view key) {
        const json::value* v = field(o, key);
        if (v != nullptr && v->is_object()) return v->get_object();
        if (v != nullptr) fail(std::string(key) + " is not an object");
        return empty_object_;
    }
    const json::array& array(const json::object& o, std::string_view key) {
        const json::value* v = field(o, key);
        if (v != nullptr && v->is_array()) return v->get_array();
        if (v != nullptr) fail(std::string(key) + " is not an array");
        return empty_array_;
    }
    const json::object& object_at(const json::array& a, std::size_t i, std::string_view what) {
        if (i < a.size() && a[i].is_object()) return a[i].get_object();
        fail(std::string(what) + " entry is not an object");
        return empty_object_;
    }
    std::string_view string(const json::object& o, std::string_view key) {
        const json::value* v = field(o, key);
        if (v != nullptr && v->is_string()) return v->get_string();
        if (v != nullptr) fail(std::string(key) + " is not a string");
        return {};
    }
    bool boolean(const json::object& o, std::string_view key) {
        const json::value* v = field(o, key);
        if (v != nullptr && v->is_bool()) return v->get_bool();
        if (v != nullptr) fail(std::string(key) + " is not a boolean");
        return false;
    }
    // A JSON number as a double (the margin is a float; everything else a whole number).
    double number(const json::object& o, std::string_view key) {
        const json::value* v = field(o, key);
        return v != nullptr ? number_of(*v, key) : 0.0;
    }
    double number_of(const json::value& v, std::string_view what) {
        double d = 0;
        if (v.is_int64()) d = static_cast<double>(v.get_int64());
        else if (v.is_uint64()) d = static_cast<double>(v.get_uint64());
        else if (v.is_double()) d = v.get_double();
        else return fail(std::string(what) + " is not a number"), 0.0;
        if (!std::isfinite(d) || std::fabs(d) > static_cast<double>(kMaxViewNumber))
            return fail(std::string(what) + " is out of range"), 0.0;
        return d;
    }
    std::int64_t integer_of(const json::value& v, std::string_view what) {
        if (!v.is_int64()) return fail(std::string(what) + " is not an integer"), 0;
        const std::int64_t i = v.get_int64();
        if (i > kMaxViewNumber || i < -kMaxViewNumber) return fail(std::string(what) + " is out of range"), 0;
        return i;
    }
    // A fixed-length list of integers: a position [x, y] or a box [x, y, w, h].
    template <std::size_t N>
    std::array<std::int64_t, N> ints(const json::object& o, std::string_view key) {
        std::array<std::int64_t, N> out{};
        const json::value* v = field(o, key);
        if (v == nullptr) return out;
        if (!v->is_array() || v->get_array().size() != N) return fail(std::string(key) + " has the wrong shape"), out;
        for (std::size_t i = 0; i < N; ++i) out[i] = integer_of(v->get_array()[i], key);
        return out;
    }
    void fail(std::string message) {
        if (error.empty()) error = std::move(message);
    }

private:
    json::object empty_object_;
    json::array empty_array_;
};

void add_ids(OrderCatalog& out, int& next, int slots, const json::array& items, Intent intent, ViewReader& r,
             std::string_view what) {
    for (int i = 0; i < slots; ++i, ++next) {
        if (static_cast<std::size_t>(i) >= items.size()) continue;
        CatalogOrder order;
        order.intent = intent;
        order.at = std::string(r.string(r.object_at(items, static_cast<std::size_t>(i), what), "id"));
        out[static_cast<std::size_t>(next)] = std::move(order);
    }
}

enum class ObjectOrder { Lock, Unlock, Vault, PushNear, PushFar };

// The door nearest (or pocket farthest from) a box's centre; the first of equals wins.
bool push_target(const std::array<std::int64_t, 4>& box, const json::array& places, bool farthest, ViewReader& r,
                 int& toX, int& toY) {
    const std::int64_t x = box[0] + box[2] / 2, y = box[1] + box[3] / 2;
    std::int64_t best = farthest ? -1 : std::numeric_limits<std::int64_t>::max();
    bool found = false;
    for (std::size_t i = 0; i < places.size(); ++i) {
        const auto at = r.ints<2>(r.object_at(places, i, "place"), "at");
        const std::int64_t dx = x - at[0], dy = y - at[1];
        const std::int64_t d = dx * dx + dy * dy;
        if (farthest ? d > best : d < best) {
            best = d;
            toX = static_cast<int>(at[0]);
            toY = static_cast<int>(at[1]);
            found = true;
        }
    }
    return found;
}

}  // namespace

Expected<OrderCatalog> order_catalog(const json::object& view) {
    ViewReader r;
    OrderCatalog out{};
    const json::object& room = r.object(view, "room");
    const json::array& pockets = r.array(room, "pockets");
    const json::array& regions = r.array(room, "regions");
    const json::array& doors = r.array(room, "doors");
    const json::array& patrol = r.array(room, "patrol");
    const json::array& objects = r.array(view, "objects");
    const std::string_view you = r.string(view, "you");
    const std::string_view own_lock = r.string(view, "role") == "hider" ? "hiders" : "seekers";
    int next = 0;
    out[static_cast<std::size_t>(next++)] = CatalogOrder{Intent::Watch, {}, {}, false, 0, 0};
    out[static_cast<std::size_t>(next++)] = CatalogOrder{Intent::Chase, {}, {}, false, 0, 0};
    add_ids(out, next, kCatalogPockets, pockets, Intent::Hide, r, "pocket");
    add_ids(out, next, kCatalogRegions, regions, Intent::MoveTo, r, "region");
    add_ids(out, next, kCatalogDoors, doors, Intent::MoveTo, r, "door");
    add_ids(out, next, kCatalogPatrol, patrol, Intent::MoveTo, r, "patrol anchor");
    for (const ObjectOrder kind :
         {ObjectOrder::Lock, ObjectOrder::Unlock, ObjectOrder::Vault, ObjectOrder::PushNear, ObjectOrder::PushFar}) {
        for (int i = 0; i < kMaxObjects; ++i, ++next) {
            if (static_cast<std::size_t>(i) >= objects.size()) continue;
            const json::object& obj = r.object_at(objects, static_cast<std::size_t>(i), "object");
            const std::string_view lock = r.string(obj, "locked");
            const json::value* holder = r.field(obj, "held_by");
            const bool available =
                holder != nullptr && (holder->is_null() || (holder->is_string() && holder->get_string() == you));
            const bool can_touch = lock == "none" || lock == own_lock;
            bool legal = false;
            switch (kind) {
                case ObjectOrder::Lock: legal = lock == "none"; break;
                case ObjectOrder::Unlock: legal = lock == own_lock; break;
                case ObjectOrder::Vault: legal = r.string(obj, "kind") == "ramp"; break;
                case ObjectOrder::PushNear:
                case ObjectOrder::PushFar: legal = available && can_touch; break;
            }
            if (!legal) continue;
            CatalogOrder order;
            order.intent = kind == ObjectOrder::Lock     ? Intent::Lock
                           : kind == ObjectOrder::Unlock ? Intent::Unlock
                           : kind == ObjectOrder::Vault  ? Intent::Vault
                                                         : Intent::Push;
            order.object = std::string(r.string(obj, "id"));
            if (kind == ObjectOrder::PushNear || kind == ObjectOrder::PushFar) {
                const auto box = r.ints<4>(obj, "box");
                order.hasTo = push_target(box, kind == ObjectOrder::PushFar ? pockets : doors,
                                          kind == ObjectOrder::PushFar, r, order.toX, order.toY);
            }
            out[static_cast<std::size_t>(next)] = std::move(order);
        }
    }
    if (!r.error.empty()) return Expected<OrderCatalog>::fail("seat view: " + r.error);
    return Expected<OrderCatalog>::ok(std::move(out));
}

Expected<NumericValues> numeric_values(const json::object& view) {
    ViewReader r;
    NumericValues out{};
    std::size_t n = 0;
    const auto add = [&](double v) {
        if (n < out.size()) out[n] = v;
        ++n;
    };
    const auto flag = [&](bool on) { add(on ? 1.0 : 0.0); };
    const auto pad = [&](int count) {
        for (int i = 0; i < count; ++i) add(-1.0);
    };
    const std::string_view role = r.string(view, "role");
    flag(role == "hider");
    flag(role == "seeker");
    const std::string_view phase = r.string(view, "phase");
    flag(phase == "prep");
    flag(phase == "hunt");
    for (const char* key : {"game", "of", "turn", "turns"}) add(r.number(view, key));
    const json::object& clock = r.object(view, "clock");
    for (const char* key : {"phase_left_s", "hunt_len_s"}) add(r.number(clock, key));
    const json::object& own = r.object(view, "you_at");
    for (const auto c : r.ints<2>(own, "pos")) add(static_cast<double>(c));
    add(r.number(own, "aim"));
    flag(r.boolean(own, "airborne"));
    const json::value* holding = r.field(own, "holding");
    flag(holding != nullptr && holding->is_string());
    const json::object& exposure = r.object(view, "exposure");
    for (const char* key : {"team_seen_ticks", "team_hidden_ticks", "margin", "you_seen_ticks", "hunt_ticks_left"})
        add(r.number(exposure, key));
    flag(r.boolean(exposure, "seen_now"));
    const json::object& fort = r.object(view, "fort");
    for (const char* key : {"locked_by_us", "locked_by_them"}) add(r.number(fort, key));
    const json::object& room = r.object(view, "room");
    const std::string_view name = r.string(room, "name");
    for (const char* known : {"warren", "atrium", "long_hall"}) flag(name == known);
    for (const char* key : {"w", "h", "keep_clear_px"}) add(r.number(room, key));
    // Each list: its first `slots` items' numbers, -1s for the slots it does not fill.
    const auto places = [&](const json::array& items, int slots, const char* key, auto width) {
        constexpr std::size_t kWidth = decltype(width)::value;
        for (int i = 0; i < slots; ++i) {
            if (static_cast<std::size_t>(i) >= items.size()) {
                pad(static_cast<int>(kWidth));
                continue;
            }
            for (const auto c : r.ints<kWidth>(r.object_at(items, static_cast<std::size_t>(i), key), key))
                add(static_cast<double>(c));
        }
    };
    const json::array& walls = r.array(room, "walls");
    for (int i = 0; i < kNumericWalls; ++i) {
        if (static_cast<std::size_t>(i) >= walls.size()) {
            pad(4);
            continue;
        }
        const json::value& wall = walls[static_cast<std::size_t>(i)];
        if (!wall.is_array() || wall.get_array().size() != 4) r.fail("a wall has the wrong shape");
        for (std::size_t k = 0; k < 4; ++k)
            add(wall.is_array() && k < wall.get_array().size() ? static_cast<double>(r.integer_of(wall.get_array()[k], "wall")) : 0.0);
    }
    places(r.array(room, "doors"), kCatalogDoors, "at", std::integral_constant<std::size_t, 2>{});
    places(r.array(room, "regions"), kCatalogRegions, "box", std::integral_constant<std::size_t, 4>{});
    places(r.array(room, "pockets"), kCatalogPockets, "at", std::integral_constant<std::size_t, 2>{});
    places(r.array(room, "patrol"), kCatalogPatrol, "at", std::integral_constant<std::size_t, 2>{});
    const json::array& objects = r.array(view, "objects");
    for (int i = 0; i < kMaxObjects; ++i) {
        if (static_cast<std::size_t>(i) >= objects.size()) {
            pad(kNumericObjectWidth);
            continue;
        }
        const json::object& obj = r.object_at(objects, static_cast<std::size_t>(i), "object");
        add(1.0);
        const std::string_view kind = r.string(obj, "kind");
        for (const char* known : {"crate", "panel", "ramp"}) flag(kind == known);
        for (const auto c : r.ints<4>(obj, "box")) add(static_cast<double>(c));
        const std::string_view lock = r.string(obj, "locked");
        for (const char* owner : {"none", "hiders", "seekers"}) flag(lock == owner);
        const json::value* holder = r.field(obj, "held_by");
        flag(holder != nullptr && holder->is_string());
    }
    const json::array& teammates = r.array(view, "teammates");
    for (int i = 0; i < kNumericTeammates; ++i) {
        if (static_cast<std::size_t>(i) >= teammates.size()) {
            pad(3);
            continue;
        }
        const json::object& mate = r.object_at(teammates, static_cast<std::size_t>(i), "teammate");
        for (const auto c : r.ints<2>(mate, "pos")) add(static_cast<double>(c));
        const json::value* held = r.field(mate, "holding");
        flag(held != nullptr && held->is_string());
    }
    const json::array& seen = r.array(view, "seen_enemies");
    if (!seen.empty()) {
        const json::object& enemy = r.object_at(seen, 0, "seen enemy");
        for (const auto c : r.ints<2>(enemy, "pos")) add(static_cast<double>(c));
        add(r.number(enemy, "ticks_ago"));
    } else {
        pad(3);
    }
    if (n != out.size()) r.fail("the view does not make " + std::to_string(kNumericValueCount) + " values");
    if (!r.error.empty()) return Expected<NumericValues>::fail("seat view: " + r.error);
    return Expected<NumericValues>::ok(out);
}

LegalMask legal_mask(const OrderCatalog& catalog) {
    LegalMask mask{};
    for (std::size_t i = 0; i < catalog.size(); ++i) mask[i] = catalog[i].has_value() ? 1 : 0;
    return mask;
}

void append_catalog_order_json(const CatalogOrder& order, std::string& out) {
    out += "{\"intent\":";
    append_nim_json_string(intent_text(order.intent), out);
    if (has_at(order.intent)) {
        out += ",\"at\":";
        append_nim_json_string(order.at, out);
    }
    if (has_object(order.intent)) {
        out += ",\"object\":";
        append_nim_json_string(order.object, out);
    }
    if (order.hasTo) out += ",\"to\":[" + std::to_string(order.toX) + "," + std::to_string(order.toY) + "]";
    out.push_back('}');
}

std::string catalog_order_json(const CatalogOrder& order) {
    std::string out;
    append_catalog_order_json(order, out);
    return out;
}

void append_catalog_json(const OrderCatalog& catalog, std::string& out) {
    out.push_back('[');
    for (std::size_t i = 0; i < catalog.size(); ++i) {
        if (i > 0) out.push_back(',');
        if (catalog[i]) append_catalog_order_json(*catalog[i], out);
        else out += "null";
    }
    out.push_back(']');
}

void append_values_json(const NumericValues& values, std::string& out) {
    out.push_back('[');
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i > 0) out.push_back(',');
        if (static_cast<int>(i) == kMarginValueIndex) out += nim_float_text(values[i]);
        else out += std::to_string(static_cast<long long>(values[i]));
    }
    out.push_back(']');
}

namespace {

bool string_equals(const json::object& o, std::string_view key, std::string_view want) {
    const json::value* v = o.if_contains(key);
    return v != nullptr && v->is_string() && v->get_string() == want;
}

bool matches(const CatalogOrder& entry, const json::object& action) {
    const std::size_t keys = 1 + (has_at(entry.intent) ? 1 : 0) + (has_object(entry.intent) ? 1 : 0) + (entry.hasTo ? 1 : 0);
    if (action.size() != keys || !string_equals(action, "intent", intent_text(entry.intent))) return false;
    if (has_at(entry.intent) && !string_equals(action, "at", entry.at)) return false;
    if (has_object(entry.intent) && !string_equals(action, "object", entry.object)) return false;
    if (entry.hasTo) {
        const json::value* to = action.if_contains("to");
        if (to == nullptr || !to->is_array() || to->get_array().size() != 2) return false;
        const auto& xy = to->get_array();
        if (!xy[0].is_int64() || !xy[1].is_int64() || xy[0].get_int64() != entry.toX || xy[1].get_int64() != entry.toY)
            return false;
    }
    return true;
}

}  // namespace

std::optional<int> catalog_index_of(const OrderCatalog& catalog, const json::value& action) {
    for (std::size_t i = 0; i < catalog.size(); ++i) {
        const bool hit = catalog[i] ? action.is_object() && matches(*catalog[i], action.get_object()) : action.is_null();
        if (hit) return static_cast<int>(i);
    }
    return std::nullopt;
}

Order order_from_catalog(const CatalogOrder& entry, const OrderContext& context) {
    auto parsed = parse_order(catalog_order_json(entry), context);
    if (parsed && !parsed->rejected) return parsed->order;
    // Only a catalog built from another room's view names what this room lacks: keep watching.
    Order watch;
    watch.fromReply = true;
    return watch;
}

int teacher_index(const OrderCatalog& catalog, const Order& order) {
    int selected = 0;
    int best = kTeacherNoChoice;
    for (std::size_t i = 0; i < catalog.size(); ++i) {
        if (!catalog[i] || catalog[i]->intent != order.intent) continue;
        const CatalogOrder& choice = *catalog[i];
        int score = 10;
        if (has_object(choice.intent)) {
            if (choice.object != order.obj) continue;
            score += 10;
        }
        if (has_at(choice.intent) && choice.at == order.at) score += 10;
        if (choice.hasTo && order.hasTo) {
            const std::int64_t dx = choice.toX - order.toX, dy = choice.toY - order.toY;
            score -= static_cast<int>((dx * dx + dy * dy) / kTeacherDistanceDivisor);
        }
        if (score > best) {
            best = score;
            selected = static_cast<int>(i);
        }
    }
    return selected;
}

}  // namespace hschool::sim::hns
