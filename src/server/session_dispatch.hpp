#pragma once
// What a WebSocket session does with one complete client message, decided without sockets:
// Hello picks the protocol (1 and 5 → arena, 4 → schools), later messages become loop commands, an
// immediate reply (Pong) or a close code. The transport (ws_session.cpp) only carries out the answer.
#include <cstddef>
#include <cstdint>
#include <variant>

#include "protocol/bytes.hpp"
#include "protocol/errors.hpp"
#include "server/commands.hpp"
#include "server/metrics.hpp"

namespace hschool::server::dispatch {

struct Ignore {};  // an unknown message id: skipped, as the protocols ask
struct Reply {     // answered on the spot (Pong), on the reliable queue
    protocol::Bytes message;
};
struct Post {  // for the loop thread
    Command command;
};
struct Promote {  // Hello accepted: the session now speaks this version and joins its world
    WireVersion version = WireVersion::None;
    std::size_t max_inbound_bytes = 0;
    Command join;
};
struct Reject {  // close with this code; malformed input is also counted as a rejected frame
    protocol::CloseCode code = protocol::CloseCode::InvalidPayload;
    const char* reason = "";
    bool malformed = true;
};
using Action = std::variant<Ignore, Reply, Post, Promote, Reject>;

struct Context {
    WireVersion version = WireVersion::None;  // None until Hello
    ConnectionRef connection;                 // who is asking (joins carry it to the loop)
    std::uint32_t tick = 0;                   // the loop's step counter, for Pong
    const SchoolRights* rights = nullptr;     // what the upgrade's credentials allow (null: everything)
};

// One complete data message from the client; text is true for a text frame (never accepted).
Action on_message(const Context& context, protocol::ByteView message, bool text);

}  // namespace hschool::server::dispatch
