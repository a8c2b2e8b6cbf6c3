#include "sim/hns/config.hpp"

#include <boost/json.hpp>
#include <limits>

#include "sim/hns/constants.hpp"
#include "sim/hns/room.hpp"

namespace hschool::sim::hns {
namespace json = boost::json;
namespace {

struct IntKey {
    const char* name;
    int GameConfig::*field;
    int min;
    int max;
};

// Ranges: the reference's own checks where it has them, else a generous bound that keeps the
// integer arithmetic far from overflow.
constexpr IntKey kIntKeys[] = {
    {"motionScale", &GameConfig::motionScale, 1, 65536},
    {"accel", &GameConfig::accel, 0, 65536},
    {"frictionNum", &GameConfig::frictionNum, 0, 65536},
    {"frictionDen", &GameConfig::frictionDen, 1, 65536},
    {"maxSpeed", &GameConfig::maxSpeed, 1, 65536},
    {"stopThreshold", &GameConfig::stopThreshold, 0, 65536},
    {"playerBouncePct", &GameConfig::playerBouncePct, 0, 100},
    {"speed", &GameConfig::speed, 1, 16},
    {"aimTurnRate", &GameConfig::aimTurnRate, 0, 255},
    {"sightRange", &GameConfig::sightRange, 1, 4096},
    {"visionConeDeg", &GameConfig::visionConeDeg, 1, 180},
    {"visionBubble", &GameConfig::visionBubble, 0, 4096},
    {"carrySpeedPct", &GameConfig::carrySpeedPct, 1, 100},
    {"grabReach", &GameConfig::grabReach, 1, 720},
    {"lockReach", &GameConfig::lockReach, 1, 720},
    {"vaultSpanPx", &GameConfig::vaultSpanPx, 1, 720},
    {"vaultTicks", &GameConfig::vaultTicks, 1, 240},
    {"keepClearPx", &GameConfig::keepClearPx, 0, 720},
    {"crates", &GameConfig::crates, 0, 6},
    {"panels", &GameConfig::panels, 0, 4},
    {"ramps", &GameConfig::ramps, 0, 3},
    {"turnTicks", &GameConfig::turnTicks, 1, 100000},
    {"prepTurns", &GameConfig::prepTurns, 0, 1000},
    {"huntTurns", &GameConfig::huntTurns, 1, 1000},
    {"maxGames", &GameConfig::maxGames, 1, 16},
    {"minPlayers", &GameConfig::minPlayers, 1, kSeats},
    {"num_agents", &GameConfig::numAgents, kSeats, kSeats},
    {"numAgents", &GameConfig::numAgents, kSeats, kSeats},
    {"startWaitTicks", &GameConfig::startWaitTicks, 0, 1000000},
    {"gameStartWaitTicks", &GameConfig::startWaitTicks, 0, 1000000},
    {"lobbyJoinTimeoutTicks", &GameConfig::lobbyJoinTimeoutTicks, 0, 100000000},
    {"gameOverTicks", &GameConfig::gameOverTicks, 0, 1000000},
    {"turnBudgetMs", &GameConfig::turnBudgetMs, 1, 3600000},
    {"attempt1Ms", &GameConfig::attempt1Ms, 1, 3600000},
    {"retryMs", &GameConfig::retryMs, 0, 3600000},
    {"turnSpacingMs", &GameConfig::turnSpacingMs, 0, 3600000},
    {"wallClockBudgetSeconds", &GameConfig::wallClockBudgetSeconds, 1, 660},
    {"maxOutputTokens", &GameConfig::maxOutputTokens, 1, 1000000},
};

struct BoolKey {
    const char* name;
    bool GameConfig::*field;
};
constexpr BoolKey kBoolKeys[] = {
    {"closedRoster", &GameConfig::closedRoster},
    {"showPlayerLabels", &GameConfig::showPlayerLabels},
    {"fastMode", &GameConfig::fastMode},
};

constexpr const char* kColorNames[8] = {"red", "blue", "green", "yellow", "lightblue", "lime", "tan", "paleblue"};
constexpr std::uint8_t kColorValues[8] = {3, 13, 10, 8, 14, 11, 7, 15};

std::string lower_compact(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (c == '_' || c == '-' || c == ' ') continue;
        out.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c));
    }
    return out;
}

std::string read_slots(const json::value& v, GameConfig& c) {
    if (!v.is_array()) return "slots: must be an array";
    const auto& a = v.as_array();
    if (a.size() > static_cast<std::size_t>(kMaxPlayers)) return "slots: too many entries";
    std::vector<SlotConfig> slots;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const std::string f = "slots[" + std::to_string(i) + "]";
        if (!a[i].is_object()) return f + ": must be an object";
        SlotConfig s;
        if (i < c.slots.size()) s.name = c.slots[i].name;
        for (const auto& kv : a[i].as_object()) {
            if (kv.key() == "token") {
                if (!kv.value().is_string()) return f + ".token: must be a string";
                s.token = std::string(kv.value().as_string());
            } else if (kv.key() == "team") {
                if (!kv.value().is_string()) return f + ".team: must be a string";
                const std::string t = lower_compact(kv.value().as_string());
                if (t == "red" || t == "hiders" || t == "hider") s.team = Team::Red;
                else if (t == "blue" || t == "seekers" || t == "seeker") s.team = Team::Blue;
                else return f + ".team: must be red or blue";
                s.has_team = true;
            } else if (kv.key() == "color") {
                if (!kv.value().is_string()) return f + ".color: must be a string";
                const std::string n = lower_compact(kv.value().as_string());
                bool found = false;
                for (int k = 0; k < 8; ++k)
                    if (n == kColorNames[k]) s.color = kColorValues[k], found = true;
                if (!found) return f + ".color: unknown colour";
                s.has_color = true;
            } else if (kv.key() == "name") {
                return f + ".name: not supported; use players[].name";
            } else {
                return f + "." + std::string(kv.key()) + ": unknown key";
            }
        }
        slots.push_back(std::move(s));
    }
    c.slots = std::move(slots);
    return {};
}

// A per-seat array (tokens, players): at most kMaxPlayers entries, entry i read into seat i's slot
// (added if missing) by `read_entry(entry, i, "key[i]")`, which names the entry in its error.
template <class ReadEntry>
std::string read_per_seat(const json::value& v, const std::string& key, GameConfig& c, ReadEntry read_entry) {
    if (!v.is_array()) return key + ": must be an array";
    const auto& a = v.as_array();
    if (a.size() > static_cast<std::size_t>(kMaxPlayers)) return key + ": too many entries";
    if (c.slots.size() < a.size()) c.slots.resize(a.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::string e = read_entry(a[i], i, key + "[" + std::to_string(i) + "]"); !e.empty()) return e;
    return {};
}

std::string read_tokens(const json::value& v, GameConfig& c) {
    return read_per_seat(v, "tokens", c, [&](const json::value& entry, std::size_t i, const std::string& f) -> std::string {
        if (!entry.is_string()) return f + ": must be a string";
        const std::string t(entry.as_string());
        if (!c.slots[i].token.empty() && c.slots[i].token != t)
            return f + ": conflicts with slots[" + std::to_string(i) + "].token";
        c.slots[i].token = t;
        if (c.closedRoster && c.slots[i].name.empty()) c.slots[i].name = "Cog" + std::to_string(i + 1);
        return {};
    });
}

std::string read_players(const json::value& v, GameConfig& c) {
    return read_per_seat(v, "players", c, [&](const json::value& entry, std::size_t i, const std::string& f) -> std::string {
        if (!entry.is_object()) return f + ": must be an object";
        const json::value* n = entry.as_object().if_contains("name");
        if (n == nullptr) return f + ".name: required";
        if (!n->is_string()) return f + ".name: must be a string";
        if (n->as_string().empty()) return f + ".name: must not be empty";
        c.slots[i].name = std::string(n->as_string());
        return {};
    });
}

}  // namespace

std::string validate_config(const GameConfig& c) {
    for (const auto& k : kIntKeys) {
        const int v = c.*(k.field);
        if (v < k.min || v > k.max)
            return std::string(k.name) + ": out of range " + std::to_string(k.min) + ".." + std::to_string(k.max);
    }
    if (c.crates + c.panels + c.ramps > kMaxObjects) return "crates: crates + panels + ramps exceed 16";
    if (c.turnBudgetMs < c.attempt1Ms + c.retryMs) return "turnBudgetMs: must cover attempt1Ms + retryMs";
    if (c.slots.size() > static_cast<std::size_t>(kMaxPlayers)) return "slots: too many entries";
    if (!room_pool_valid(c.roomPool)) return "roomPool: must be all, warren, atrium or long_hall";
    return {};
}

Expected<GameConfig> apply_config_json(GameConfig c, std::string_view text) {
    using R = Expected<GameConfig>;
    if (text.size() > kMaxConfigBytes) return R::fail("config: larger than 1 MiB");
    boost::system::error_code ec;
    json::value doc = json::parse(text, ec);
    if (ec) return R::fail("config: not JSON: " + ec.message());
    if (!doc.is_object()) return R::fail("config: must be a JSON object");
    const json::object& o = doc.as_object();
    // Order as the reference's update: scalars, then closedRoster, slots, tokens, players.
    const json::value* derived_max_ticks = nullptr;
    for (const auto& kv : o) {
        const std::string k(kv.key());
        const json::value& v = kv.value();
        bool known = false;
        for (const auto& ik : kIntKeys) {
            if (k != ik.name) continue;
            known = true;
            if (!v.is_int64() && !v.is_uint64()) return R::fail(k + ": must be an integer");
            const std::int64_t n = v.is_int64() ? v.as_int64() : -1;
            if (v.is_uint64() && v.as_uint64() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
                return R::fail(k + ": out of range");
            if (n < ik.min || n > ik.max)
                return R::fail(k + ": out of range " + std::to_string(ik.min) + ".." + std::to_string(ik.max));
            c.*(ik.field) = static_cast<int>(n);
        }
        for (const auto& bk : kBoolKeys) {
            if (k != bk.name) continue;
            known = true;
            if (!v.is_bool()) return R::fail(k + ": must be a boolean");
            c.*(bk.field) = v.as_bool();
        }
        if (known) continue;
        if (k == "seed") {
            if (!v.is_int64()) return R::fail("seed: must be a 64-bit signed integer");
            c.seed = v.as_int64();
        } else if (k == "roomPool" || k == "model") {
            if (!v.is_string()) return R::fail(k + ": must be a string");
            (k == "roomPool" ? c.roomPool : c.model) = std::string(v.as_string());
        } else if (k == "gameVersion") {
            const auto version = v.is_string() ? parse_game_version(v.as_string()) : std::nullopt;
            if (!version) return R::fail("gameVersion: must be \"1\" or \"2\"");
            c.gameVersion = *version;
        } else if (k == "mapSpec") {
            if (!v.is_object()) return R::fail("mapSpec: must be an object");
            c.mapSpec = json::serialize(v);
        } else if (k == "maxTicks") {
            derived_max_ticks = &v;  // echo only: derived from the clock keys, checked below
        } else if (k == "player_names") {
            return R::fail("player_names: not supported; use players[].name");
        } else if (k != "slots" && k != "tokens" && k != "players") {
            return R::fail(k + ": unknown key");
        }
    }
    if (const json::value* v = o.if_contains("slots")) {
        if (std::string e = read_slots(*v, c); !e.empty()) return R::fail(e);
    }
    if (const json::value* v = o.if_contains("tokens")) {
        if (std::string e = read_tokens(*v, c); !e.empty()) return R::fail(e);
    }
    if (const json::value* v = o.if_contains("players")) {
        if (std::string e = read_players(*v, c); !e.empty()) return R::fail(e);
    }
    if (std::string e = validate_config(c); !e.empty()) return R::fail(e);
    if (derived_max_ticks != nullptr &&
        (!derived_max_ticks->is_int64() || derived_max_ticks->as_int64() != c.maxTicks()))
        return R::fail("maxTicks: must equal (prepTurns + huntTurns) * turnTicks");
    if (!c.mapSpec.empty()) {
        auto room = parse_room(c.mapSpec);
        if (!room) return R::fail("mapSpec: " + room.error);
    }
    return R::ok(std::move(c));
}

Expected<GameConfig> variant_config(std::string_view name) {
    GameConfig c;
    if (name == "warren") {
        c.roomPool = "all";
        c.lobbyJoinTimeoutTicks = 4800;
    } else if (name == "long-hall") {
        c.roomPool = "long_hall";
        c.crates = 6;
        c.panels = 3;
        c.ramps = 2;
        c.prepTurns = 6;
        c.sightRange = 380;
        c.lobbyJoinTimeoutTicks = 4800;
    } else if (name == "certification") {
        c.roomPool = "warren";
        c.seed = 42;
        c.prepTurns = 2;
        c.huntTurns = 3;
        c.startWaitTicks = 0;
        c.gameOverTicks = 24;
        c.turnSpacingMs = 0;
        c.wallClockBudgetSeconds = 480;
        c.lobbyJoinTimeoutTicks = 4800;
    } else {
        return Expected<GameConfig>::fail("variant: unknown " + std::string(name) +
                                          " (warren, long-hall, certification)");
    }
    return Expected<GameConfig>::ok(std::move(c));
}

std::string config_to_json(const GameConfig& c) {
    json::object o;
    for (const auto& k : kIntKeys) {
        const std::string n = k.name;
        if (n == "numAgents" || n == "gameStartWaitTicks") continue;  // aliases are not echoed
        if (n == "speed") o["seed"] = c.seed;
        if (n == "maxGames") o["maxTicks"] = c.maxTicks();
        if (n == "turnTicks") o["roomPool"] = c.roomPool;
        if (n == "turnBudgetMs") {
            o["closedRoster"] = c.closedRoster;
            o["showPlayerLabels"] = c.showPlayerLabels;
            o["fastMode"] = c.fastMode;
        }
        if (n == "maxOutputTokens" && !c.model.empty()) o["model"] = c.model;
        o[n] = c.*(k.field);
    }
    json::array tokens, slots, players;
    bool any_name = false;
    for (const auto& s : c.slots) {
        tokens.push_back(json::string(s.token));
        json::object so;
        if (s.has_team) so["team"] = s.team == Team::Red ? "red" : "blue";
        if (s.has_color)
            for (int k = 0; k < 8; ++k)
                if (kColorValues[k] == s.color) so["color"] = kColorNames[k];
        slots.push_back(std::move(so));
        players.push_back(json::object{{"name", s.name}});
        any_name = any_name || !s.name.empty();
    }
    if (!c.slots.empty()) {
        o["tokens"] = std::move(tokens);
        o["slots"] = std::move(slots);
        if (any_name) o["players"] = std::move(players);
    }
    if (!c.mapSpec.empty()) {
        boost::system::error_code ec;
        json::value spec = json::parse(c.mapSpec, ec);
        if (!ec) o["mapSpec"] = std::move(spec);
    }
    return json::serialize(o);
}

}  // namespace hschool::sim::hns
