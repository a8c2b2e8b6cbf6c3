#pragma once
// What a live match's sockets and controls tell its thread: one event each, queued in the order
// they happened (the match's inbox) and handled on the match thread before its next step.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "net/ws_connection.hpp"

namespace hschool::server::hns {

using SteadyClock = std::chrono::steady_clock;

// The path a match's socket came in on: /player; /global and /admin; /reward.
enum class Endpoint { Player, Global, Reward };

struct MatchEvent {
    enum class Kind { Join, Attach, Text, Mask, Ready, SpritesOff, Closed, Restart, Kick };
    Kind kind = Kind::Closed;
    int socket = 0;
    Endpoint endpoint = Endpoint::Player;       // Attach
    std::shared_ptr<net::WsConnection> peer;    // Attach
    std::string text;                           // Join (identity), Text (printable), Kick (identity)
    std::string token;                          // Join
    int slot = -1;                              // Join: the requested slot, -1 auto
    int replaces = 0;                           // Join: the socket of the same seat this one takes over from
    bool controls = false;                      // Attach: a /global socket whose speed keys count
    bool compact = false;                       // Attach: a /global socket that asked for the compact stream
    std::uint8_t mask = 0;                      // Mask
    SteadyClock::time_point at{};               // Text: arrival, for the decision deadline
};

inline MatchEvent make_event(MatchEvent::Kind kind) {
    MatchEvent event;
    event.kind = kind;
    return event;
}

// Where a match's sockets post their events (the match, which outlives none of its sockets' calls).
class MatchInbox {
public:
    virtual ~MatchInbox() = default;
    virtual void post(MatchEvent event) = 0;
    // Frames the match has sent so far: the sockets' per-frame allowances reset on it.
    virtual std::uint64_t frames_sent() const = 0;
    // A seat's network thread wrote the frames the match was holding its next one for (on that thread).
    virtual void writer_caught_up() = 0;
};

}  // namespace hschool::server::hns
