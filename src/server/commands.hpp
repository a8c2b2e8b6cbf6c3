#pragma once
// What network threads may ask of the loop thread. Nothing else mutates simulation state.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <variant>

#include "protocol/v4.hpp"
#include "net/ws_connection.hpp"
#include "server/access.hpp"

namespace hschool::server {

using net::ConnectionId;
using net::ConnectionRef;

class World;

namespace cmd {
struct ArenaJoin {
    ConnectionRef connection;
    std::string name;
};
// A v5 Hello: the avatar's Frames are per-connection deltas, its inputs one command per tick.
struct ArenaJoinV5 {
    ConnectionRef connection;
    std::string name;
};
struct ArenaInput {
    ConnectionId connection = 0;
    std::uint32_t sequence = 0;
    std::uint8_t buttons = 0;
};
struct SchoolsJoin {
    ConnectionRef connection;
    protocol::v4::Locale locale = protocol::v4::Locale::Russian;
    SchoolRights rights;
};
struct OpenSchool {
    ConnectionId connection = 0;
    std::int32_t school_id = 0;
};
struct CloseSchool {
    ConnectionId connection = 0;
};
struct SetRunning {
    ConnectionId connection = 0;
    std::uint8_t running = 0;
};
struct SetSpeed {
    ConnectionId connection = 0;
    std::uint8_t speed_index = 0;
};
struct Disconnect {
    ConnectionId connection = 0;
};
// Work from an HTTP handler that needs the loop's state; it answers through its own callback.
struct Task {
    std::function<void(World&)> run;
};
}  // namespace cmd

using Command = std::variant<cmd::ArenaJoin, cmd::ArenaJoinV5, cmd::ArenaInput, cmd::SchoolsJoin, cmd::OpenSchool, cmd::CloseSchool,
                             cmd::SetRunning, cmd::SetSpeed, cmd::Disconnect, cmd::Task>;

}  // namespace hschool::server
