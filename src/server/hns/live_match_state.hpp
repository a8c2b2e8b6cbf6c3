#pragma once
// The match thread's own state: live_match.cpp runs the loop, live_seats.cpp seats, turns and
// steps, live_frames.cpp the frames and the published view. Private to those three files.
#include <array>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "protocol/bytes.hpp"
#include "render/hns/stream.hpp"
#include "server/hns/decisions.hpp"
#include "server/hns/llm_client.hpp"
#include "server/hns/live_match.hpp"
#include "sim/hns/seat_view.hpp"
#include "server/hns/pacing.hpp"
#include "server/hns/registration.hpp"
#include "server/hns/spectator_feed.hpp"
#include "server/hns/traffic.hpp"
#include "sim/hns/driver.hpp"
#include "sim/hns/replay.hpp"
#include "sim/hns/sim.hpp"

namespace hschool::server::hns {

using SteadyClock = std::chrono::steady_clock;

// What the sockets and the controls tell the match thread.
struct MatchEvent {
    enum class Kind { Join, Attach, Text, Mask, Ready, SpritesOff, Closed, Restart, Kick };
    Kind kind = Kind::Closed;
    int socket = 0;
    Endpoint endpoint = Endpoint::Player;  // Attach
    std::shared_ptr<Peer> peer;            // Attach
    std::string text;                      // Join (identity), Text (printable), Kick (identity)
    std::string token;                     // Join
    int slot = -1;                         // Join: the requested slot, -1 auto
    int replaces = 0;                      // Join: the socket of the same seat this one takes over from
    bool controls = false;                 // Attach: a /global socket whose speed keys count
    bool compact = false;                  // Attach: a /global socket that asked for the compact stream
    std::uint8_t mask = 0;                 // Mask
    SteadyClock::time_point at{};          // Text: arrival, for the decision deadline
};

inline MatchEvent make_event(MatchEvent::Kind kind) {
    MatchEvent event;
    event.kind = kind;
    return event;
}

// One socket of this match, as the match thread knows it.
struct SocketState {
    Endpoint endpoint = Endpoint::Player;
    std::shared_ptr<Peer> peer;
    bool controls = false;  // Global sockets: may change the speed (open mode, or the owner's token)
    bool compact = false;   // Global sockets: the compact stream (issue 31)
    // Player sockets:
    std::string identity;
    int requested_slot = -1;
    std::string token;
    int player_index = -1;  // seated: 0..5
    bool pending = true;    // waiting for slot-sequential admission (lobby only)
    PaceSocket pace;
    std::uint8_t mask = 0;  // the last 0x84 (drives a manual seat)
    std::optional<Registration> held;  // sent before the socket was seated
    render::hns::Stream stream;
    bool manual_stream = false;  // `stream` draws the manual seat's scene (the room), not the contract's own cog
};

// One seat (player index 0..5) of the sim.
struct SeatState {
    bool seated = false;
    bool bot = false;     // the setup's own burrow bots (kept across a restart)
    bool filled = false;  // seated by the lobby timeout (§2.9): a dead seat
    int socket = 0;     // the player socket that took it (0: none)
    std::string identity;
    std::string token;  // the token it joined with: a re-dial must bring the same one
    SeatRegistration registration;
    SeatPolicy policy;
    sim::hns::Order order;
    bool has_order = false;
    sim::hns::SeatMemory memory;
    // The turn being decided:
    bool awaiting = false;
    std::optional<Reply> reply;
    SteadyClock::time_point reply_at{};
};

struct MatchRuntime {
    explicit MatchRuntime(sim::hns::Sim s)
        : sim(std::move(s)), driver(sim), writer(sim::hns::config_to_json(sim.config()), 0, sim.config().gameVersion) {}

    sim::hns::Sim sim;
    sim::hns::Driver driver;
    sim::hns::ReplayWriter writer;
    std::vector<sim::hns::Input> masks, prev;
    std::map<int, SocketState> sockets;  // by socket id, in connection order
    SpectatorFeed spectators;            // the Global sockets' shared frames (live_frames.cpp)
    std::array<SeatState, 6> seats{};
    int speed_index = kDefaultSpeedIndex;
    // The decision turn in progress (external seats awaited).
    bool turn_waiting = false;
    int turn = -1;
    int turn_game = 0;
    SteadyClock::time_point turn_dispatched{};
    int last_turn_key = -1;  // game·1000 + turn of the last dispatched turn
    std::string phase_text = "lobby";
    // After a restart, seat i goes back to the identity (and token) that held it only; an empty
    // identity: to whoever comes in slot order.
    struct Reservation {
        std::string identity, token;
    };
    std::array<Reservation, 6> reserved{};
    std::vector<SeatClaim> published_claims;  // the seats as the admission check last saw them
    std::string end_reason;                   // set when the server ended the match early ("replay_limit")
    // Prompt seats' model client, made at the first turn that has a prompt seat (a restart drops
    // it: a 401 turns it off for one match only). `stopping`: the match is asked to stop, so a
    // model wait ends early.
    std::unique_ptr<LlmClient> llm;
    std::function<bool()> stopping = [] { return false; };
    SteadyClock::time_point loop_start{};
    FrameCounts frames;                       // Playing frames by pacing (the metrics file)
    std::array<SeatTraffic, 6> traffic{};     // bytes to each seat's /player socket (the metrics file)
    std::uint64_t start_ms = 0;               // the replay header's start time
};

}  // namespace hschool::server::hns
