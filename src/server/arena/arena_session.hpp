#pragma once
// What an arena connection's messages mean (v1 and v5 on /ws/game), decided without sockets: a
// Hello becomes a join, an Input a loop command, a Ping an immediate Pong.
#include <cstdint>
#include <variant>

#include "net/ws_connection.hpp"
#include "protocol/answer.hpp"
#include "server/arena/commands.hpp"

namespace hschool::server::arena {

// What /metrics counts arena sockets under: their version byte.
inline constexpr net::ProtocolTag kV1Tag = 1;
inline constexpr net::ProtocolTag kV5Tag = 5;

using HelloAnswer = std::variant<cmd::ArenaJoin, cmd::ArenaJoinV5, protocol::Reject>;
using MessageAnswer = std::variant<protocol::Ignore, protocol::Reply, cmd::ArenaInput, protocol::Reject>;

// A Hello of version 1 or 5 (the caller has read the version byte).
HelloAnswer on_hello_v1(const net::ConnectionRef& connection, protocol::ByteView message);
HelloAnswer on_hello_v5(const net::ConnectionRef& connection, protocol::ByteView message);
// A later message; tick: the loop's step counter, for Pong.
MessageAnswer on_message_v1(net::ConnectionId connection, std::uint32_t tick, protocol::ByteView message);
MessageAnswer on_message_v5(net::ConnectionId connection, std::uint32_t tick, protocol::ByteView message);

}  // namespace hschool::server::arena
