#pragma once
// /ws/game: one WebSocket path for the arena (v1, v5) and the schools (v4), picked by the Hello's
// version byte. The endpoint checks a v4 upgrade's credentials before the 101; each connection's
// handler asks dispatch::on_message what a message means (the games' sessions decide, without
// sockets), carries the answer out, and tells the loop when the connection goes.
#include <cstddef>
#include <cstdint>
#include <variant>

#include "net/ws_endpoint.hpp"
#include "protocol/answer.hpp"
#include "server/commands.hpp"
#include "server/metrics.hpp"

namespace hschool::server {

class AccessPolicy;
class GameLoop;

inline constexpr const char* kGameSocketPath = "/ws/game";

// access: which credentials a v4 upgrade may carry (`?ownerToken=t1,t2`) to pause or speed up
// schools (open mode: every session may; an over-long list is refused 400 in any mode).
net::WsEndpoint game_socket_endpoint(GameLoop& loop, Metrics& metrics, const AccessPolicy& access);

namespace dispatch {

using protocol::Ignore;
using protocol::Reject;
using protocol::Reply;
struct Post {  // for the loop thread
    Command command;
};
struct Promote {  // Hello accepted: the session now speaks this version and joins its world
    WireVersion version = WireVersion::None;
    std::size_t max_inbound_bytes = 0;
    Command join;
};
using Action = std::variant<Ignore, Reply, Post, Promote, Reject>;

struct Context {
    WireVersion version = WireVersion::None;  // None until Hello
    net::ConnectionRef connection;            // who is asking (joins carry it to the loop)
    std::uint32_t tick = 0;                   // the loop's step counter, for Pong
    const SchoolRights* rights = nullptr;     // what the upgrade's credentials allow (null: everything)
};

// One complete data message from the client; text is true for a text frame (never accepted).
Action on_message(const Context& context, protocol::ByteView message, bool text);

}  // namespace dispatch
}  // namespace hschool::server
