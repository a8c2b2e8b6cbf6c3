#pragma once
// A match as the REST shows it (GET /api/hns/matches): published by the match thread after
// every frame, read by HTTP handlers without touching the sim.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/hns/state.hpp"

namespace hschool::server::hns {

struct SeatView {
    int slot = 0;
    std::string identity;       // "" while the seat is empty
    std::string kind = "empty";  // scripted | external | prompt | manual | empty
    std::string label;           // the registration's policy label, or the baseline
    std::string side;            // hider | seeker (this game's side)
    bool connected = false;      // a socket plays it (bots and lobby fills are not connected)
};

struct MatchView {
    std::string id, variant;
    std::string game_version = "2";  // the rules it plays by; a summary without one is older: "1"
    bool is_default = false;
    std::string phase = "lobby";  // lobby | playing | game_over | finished | stopped
    std::string match_phase = "prep";
    int game = 1, games = 2;
    int tick = 0, game_tick = 0, phase_ticks_left = 0;
    int hidden_ticks = 0, seen_ticks = 0;
    bool fast_mode = true;
    int spectators = 0;
    std::vector<SeatView> seats;
    std::int64_t finished_at_ms = 0;  // 0 while running
    std::string end_reason;           // results' reason once finished
    std::string results_json;         // "" while running
};

// The summary object; with `results`, also "results" (null while running).
std::string match_view_json(const MatchView& view, bool with_results);
// A view back from its JSON (archived summaries); false on anything malformed.
bool match_view_from_json(std::string_view json, MatchView& view);

// The view's words for the sim's phase: lobby, playing, game_over (also /metrics' labels).
const char* match_phase_text(sim::hns::GamePhase phase);
// Why a match ended, as its results JSON says ("reason"); "" when it says nothing readable.
std::string end_reason_of(std::string_view results_json);

}  // namespace hschool::server::hns
