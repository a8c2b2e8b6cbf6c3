#pragma once
// What a schools connection's messages mean (v4 on /ws/game), decided without sockets: a Hello
// becomes a join with the upgrade's rights, a control a loop command, a Ping an immediate Pong.
#include <cstdint>
#include <variant>

#include "net/ws_connection.hpp"
#include "protocol/answer.hpp"
#include "server/schools/commands.hpp"

namespace hschool::server::schools {

// What /metrics counts schools sockets under: their version byte.
inline constexpr net::ProtocolTag kV4Tag = 4;

using HelloAnswer = std::variant<cmd::SchoolsJoin, protocol::Reject>;
using MessageAnswer = std::variant<protocol::Ignore, protocol::Reply, cmd::OpenSchool, cmd::CloseSchool, cmd::SetRunning,
                                   cmd::SetSpeed, protocol::Reject>;

// A Hello of version 4 (the caller has read the version byte); rights: what its upgrade's
// credentials allow.
HelloAnswer on_hello(const net::ConnectionRef& connection, const SchoolRights& rights, protocol::ByteView message);
// A later message; tick: the loop's step counter, for Pong.
MessageAnswer on_message(net::ConnectionId connection, std::uint32_t tick, protocol::ByteView message);

}  // namespace hschool::server::schools
