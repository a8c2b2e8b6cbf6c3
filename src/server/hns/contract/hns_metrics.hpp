#pragma once
// What matches report for /metrics. An interface, so the Boost-free matches need not know
// prometheus-cpp: the server's Metrics implements it (the league tests count with their own).
#include <cstddef>
#include <cstdint>

namespace hschool::server::hns {

// Sprite v1 sockets as /metrics counts them (the net::ProtocolTag of /player, /global, /admin,
// /reward and /replay: 'S').
inline constexpr std::uint8_t kSpriteTag = 0x53;

class HnsMetrics {
public:
    virtual ~HnsMetrics() = default;
    // A match entered phase `to` and left `from` ("" for none: created, or gone).
    virtual void match_phase(const char* from, const char* to) = 0;
    // A seat's policy kind changed ("" for none: seated, or gone).
    virtual void seat_kind(const char* from, const char* to) = 0;
    virtual void ticks(std::size_t count) = 0;
    // A frame let go more than a frame time late (the match is behind its 24 Hz); a frame held
    // until the network threads had written the seats' frames before it (the server is behind).
    // Not pure: only live matches have them.
    virtual void frame_late() {}
    virtual void network_wait() {}
    // Bytes of one stream kind sent in a frame: "player", "global", "reward", "replay", and our
    // browser's compact streams "global_compact", "replay_compact".
    virtual void frame_bytes(const char* stream, std::size_t bytes) = 0;
    // Spectator frames encoded for one match's tick: shared diffs and keyframes (issue 19: one
    // diff per tick however many spectators watch).
    virtual void spectator_encodes(std::size_t deltas, std::size_t keyframes) = 0;
    // Viewers whose backlog was dropped for a keyframe: "global" (live spectators), "replay",
    // "global_compact", "replay_compact".
    virtual void viewer_resyncs(const char* stream, std::size_t count) = 0;
    // A /replay viewer reached a seek's target (back, restart, a jump, the end) after stepping
    // `steps` ticks from the nearest shared keyframe (issue 19: never the replay from tick 0 again).
    virtual void replay_seek(std::size_t steps) = 0;
    virtual void decision_latency(double seconds) = 0;
    // A seat's attempt failed or it played burrow: "timeout", "parse_error", "transport_error",
    // "throttled", "no_credentials", "budget_guard" (one per fallback record).
    virtual void fallback(const char* cause) = 0;
    // A request, socket or message refused by a hide-and-seek budget (the reason names the budget).
    virtual void refused(const char* reason) = 0;
    // Leagues (issue 33): running leagues went up or down by `delta`; a league archived a match.
    // Not pure, so implementations written before leagues need not know them.
    virtual void leagues_running(int delta) { (void)delta; }
    virtual void league_match_played() {}
};

}  // namespace hschool::server::hns
