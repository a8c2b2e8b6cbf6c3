#pragma once
// What the arena's connections ask of the loop thread (arena_session.hpp makes them, ArenaService
// carries them out).
#include <cstdint>
#include <string>

#include "net/ws_connection.hpp"

namespace hschool::server::cmd {

struct ArenaJoin {
    net::ConnectionRef connection;
    std::string name;
};
// A v5 Hello: the avatar's Frames are per-connection deltas, its inputs one command per tick.
struct ArenaJoinV5 {
    net::ConnectionRef connection;
    std::string name;
};
struct ArenaInput {
    net::ConnectionId connection = 0;
    std::uint32_t sequence = 0;
    std::uint8_t buttons = 0;
};

}  // namespace hschool::server::cmd
