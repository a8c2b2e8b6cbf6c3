#pragma once
// What network threads may ask of the loop thread: each game's commands, a connection gone, and
// an HTTP handler's task. Nothing else mutates simulation state.
#include <functional>
#include <variant>

#include "net/ws_connection.hpp"
#include "server/arena/commands.hpp"
#include "server/schools/commands.hpp"

namespace hschool::server {

class World;

namespace cmd {
// A connection that spoke a game has gone: every game forgets it.
struct Disconnect {
    net::ConnectionId connection = 0;
};
// Work from an HTTP handler that needs the loop's state; it answers through its own callback.
struct Task {
    std::function<void(World&)> run;
};
}  // namespace cmd

using Command = std::variant<cmd::ArenaJoin, cmd::ArenaJoinV5, cmd::ArenaInput, cmd::SchoolsJoin, cmd::OpenSchool, cmd::CloseSchool,
                             cmd::SetRunning, cmd::SetSpeed, cmd::Disconnect, cmd::Task>;

}  // namespace hschool::server
