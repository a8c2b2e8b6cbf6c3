#include "server/hns/contract/match_view.hpp"

#include <boost/json.hpp>

namespace hschool::server::hns {

namespace json = boost::json;

std::string match_view_json(const MatchView& v, bool with_results) {
    json::object o;
    o["id"] = v.id;
    o["variant"] = v.variant;
    o["gameVersion"] = v.game_version;
    o["default"] = v.is_default;
    o["phase"] = v.phase;
    o["matchPhase"] = v.match_phase;
    o["game"] = v.game;
    o["games"] = v.games;
    o["tick"] = v.tick;
    o["gameTick"] = v.game_tick;
    o["phaseTicksLeft"] = v.phase_ticks_left;
    o["hiddenTicks"] = v.hidden_ticks;
    o["seenTicks"] = v.seen_ticks;
    o["fastMode"] = v.fast_mode;
    o["spectators"] = v.spectators;
    json::array seats;
    for (const auto& s : v.seats) {
        seats.push_back(json::object{{"slot", s.slot},
                                     {"identity", s.identity},
                                     {"kind", s.kind},
                                     {"label", s.label},
                                     {"side", s.side},
                                     {"connected", s.connected}});
    }
    o["seats"] = std::move(seats);
    if (v.finished_at_ms > 0) o["finishedAt"] = v.finished_at_ms;
    else o["finishedAt"] = nullptr;
    o["endReason"] = v.end_reason;
    if (with_results) {
        json::error_code ec;
        json::value results = v.results_json.empty() ? json::value(nullptr) : json::parse(v.results_json, ec);
        o["results"] = ec ? json::value(nullptr) : results;
    }
    return json::serialize(o);
}

namespace {

std::string str(const json::object& o, const char* key) {
    const auto* v = o.if_contains(key);
    return v && v->is_string() ? std::string(v->as_string()) : std::string();
}
std::int64_t num(const json::object& o, const char* key) {
    const auto* v = o.if_contains(key);
    return v && v->is_int64() ? v->as_int64() : 0;
}
bool flag(const json::object& o, const char* key) {
    const auto* v = o.if_contains(key);
    return v && v->is_bool() && v->as_bool();
}

}  // namespace

bool match_view_from_json(std::string_view text, MatchView& v) {
    json::error_code ec;
    const json::value parsed = json::parse(text, ec);
    if (ec || !parsed.is_object()) return false;
    const auto& o = parsed.as_object();
    v.id = str(o, "id");
    v.variant = str(o, "variant");
    // Summaries archived before GameVersion 2 name none: every match then played version 1.
    v.game_version = o.contains("gameVersion") ? str(o, "gameVersion") : "1";
    v.is_default = flag(o, "default");
    v.phase = str(o, "phase");
    v.match_phase = str(o, "matchPhase");
    v.game = static_cast<int>(num(o, "game"));
    v.games = static_cast<int>(num(o, "games"));
    v.tick = static_cast<int>(num(o, "tick"));
    v.game_tick = static_cast<int>(num(o, "gameTick"));
    v.phase_ticks_left = static_cast<int>(num(o, "phaseTicksLeft"));
    v.hidden_ticks = static_cast<int>(num(o, "hiddenTicks"));
    v.seen_ticks = static_cast<int>(num(o, "seenTicks"));
    v.fast_mode = flag(o, "fastMode");
    v.spectators = 0;  // nobody watches an archived match
    v.finished_at_ms = num(o, "finishedAt");
    v.end_reason = str(o, "endReason");
    v.seats.clear();
    if (const auto* seats = o.if_contains("seats"); seats && seats->is_array()) {
        for (const auto& s : seats->as_array()) {
            if (!s.is_object()) return false;
            const auto& so = s.as_object();
            SeatView seat;
            seat.slot = static_cast<int>(num(so, "slot"));
            seat.identity = str(so, "identity");
            seat.kind = str(so, "kind");
            seat.label = str(so, "label");
            seat.side = str(so, "side");
            seat.connected = false;
            v.seats.push_back(std::move(seat));
        }
    }
    return !v.id.empty();
}

const char* match_phase_text(sim::hns::GamePhase phase) {
    switch (phase) {
    case sim::hns::GamePhase::Lobby: return "lobby";
    case sim::hns::GamePhase::Playing: return "playing";
    case sim::hns::GamePhase::GameOver: return "game_over";
    }
    return "lobby";
}

std::string end_reason_of(std::string_view results_json) {
    json::error_code ec;
    const auto parsed = json::parse(results_json, ec);
    if (ec || !parsed.is_object()) return "";
    return str(parsed.as_object(), "reason");
}

}  // namespace hschool::server::hns
