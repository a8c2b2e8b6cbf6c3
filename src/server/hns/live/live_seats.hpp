#pragma once
// The steps of one match-loop iteration, as plain functions over the match thread's state, in the
// order live_match.cpp calls them (spec §2.7): events, pacing, admission, the decision turn, the
// step, the frames. live_seats.cpp: events, seats, turns, steps; live_frames.cpp: frames and view.
#include <chrono>
#include <string>

#include "server/hns/live/live_match_state.hpp"

namespace hschool::server::hns {

// The seats as SeatClaims (identity, index, token, socket) for the pre-upgrade seat check.
std::vector<SeatClaim> seat_claims(const MatchRuntime& rt);

// One thing a socket or a control sent: joins, registrations, replies, masks, ready, kicks, restarts.
void handle_event(MatchRuntime& rt, MatchEvent& event, HnsMetrics& metrics);

// Pacing: 41,666 µs since the last frame, or (fast mode) every seated socket sent a lone 0x85.
PaceDecision frame_due_now(const MatchRuntime& rt, SteadyClock::duration since_last_frame, bool fast_mode);

// Lobby only: seats pending sockets and the server's bots slot-sequentially; fills the lobby
// after its timeout (§2.9).
void admit_pending(MatchRuntime& rt, const MatchSetup& setup, MatchListener& listener, HnsMetrics& metrics);

// At a turn boundary: scripted, prompt and external seats get this turn's orders (external ones
// a decision frame). True when external seats are now awaited.
bool begin_turn(MatchRuntime& rt, SteadyClock::time_point now, HnsMetrics& metrics);
// Every awaited seat has a counting reply, or the deadline has passed.
bool turn_settled_now(const MatchRuntime& rt, SteadyClock::time_point now, SteadyClock::duration budget);
// Applies the replies (or fallbacks) of the awaited seats.
void finish_turn(MatchRuntime& rt, SteadyClock::time_point now, HnsMetrics& metrics);

// Compiles masks and steps `speed` ticks (stopping early at a turn boundary or the end), writing
// inputs and hashes to the replay.
void step_frame(MatchRuntime& rt, HnsMetrics& metrics);
// §2.9: stop record, forced deadline stop, zero masks, one last step and its hash.
void wall_clock_stop(MatchRuntime& rt);

// live_frames.cpp: every socket's frame for this iteration.
void send_frames(MatchRuntime& rt, HnsMetrics& metrics);
MatchView view_of(const MatchRuntime& rt, const MatchSetup& setup);

const char* kind_text(PolicyKind kind);
const char* phase_text(sim::hns::GamePhase phase);  // lobby, playing, game_over (REST and metrics)  // the REST's word: scripted, external, prompt, manual
std::string end_reason_of(const std::string& results_json);

}  // namespace hschool::server::hns
