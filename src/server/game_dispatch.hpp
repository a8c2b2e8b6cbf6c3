#pragma once
// What a /ws/game message means, decided without sockets: before Hello the Hello's version byte
// picks the game, after it that game's session decides (arena v1/v5, schools v4). Boost-free, so
// its fuzz target (fuzz_session_dispatch) needs no transport.
#include <cstddef>
#include <cstdint>
#include <variant>

#include "protocol/answer.hpp"
#include "server/commands.hpp"
#include "server/metrics.hpp"

namespace hschool::server {

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
