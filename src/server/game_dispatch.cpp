#include "server/game_dispatch.hpp"

#include <type_traits>
#include <utility>

#include "protocol/hello.hpp"
#include "protocol/v1.hpp"
#include "protocol/v4.hpp"
#include "protocol/v5.hpp"
#include "server/arena/arena_session.hpp"
#include "server/schools/schools_session.hpp"

namespace hschool::server {
namespace {

// A game's answer as the socket carries it out: its commands go to the loop.
template <class Answer>
dispatch::Action posted(Answer&& answer) {
    return std::visit(
        [](auto& a) -> dispatch::Action {
            using A = std::decay_t<decltype(a)>;
            if constexpr (std::is_same_v<A, protocol::Ignore> || std::is_same_v<A, protocol::Reply> || std::is_same_v<A, protocol::Reject>)
                return std::move(a);
            else
                return dispatch::Post{std::move(a)};
        },
        answer);
}

// A Hello's answer: its join promotes the connection to the game's version.
template <class Answer>
dispatch::Action promoted(Answer&& answer, WireVersion version, std::size_t max_inbound_bytes) {
    return std::visit(
        [&](auto& a) -> dispatch::Action {
            using A = std::decay_t<decltype(a)>;
            if constexpr (std::is_same_v<A, protocol::Reject>)
                return std::move(a);
            else
                return dispatch::Promote{version, max_inbound_bytes, std::move(a)};
        },
        answer);
}

dispatch::Action on_hello(const dispatch::Context& context, protocol::ByteView message) {
    const auto version = protocol::hello_version(message);
    if (!version) return protocol::Reject{protocol::CloseCode::InvalidPayload, "the first frame must be Hello"};
    if (*version == protocol::v1::kVersion)
        return promoted(arena::on_hello_v1(context.connection, message), WireVersion::Arena, protocol::v1::kMaxInboundFrameBytes);
    if (*version == protocol::v5::kVersion)
        return promoted(arena::on_hello_v5(context.connection, message), WireVersion::ArenaV5, protocol::v5::kMaxInboundFrameBytes);
    if (*version == protocol::v4::kVersion)
        return promoted(schools::on_hello(context.connection, context.rights ? *context.rights : SchoolRights{}, message),
                        WireVersion::Schools, protocol::v4::kMaxInboundFrameBytes);
    return protocol::Reject{protocol::CloseCode::ProtocolError, "unsupported protocol version", false};
}

}  // namespace

dispatch::Action dispatch::on_message(const Context& context, protocol::ByteView message, bool text) {
    if (text) return Reject{protocol::CloseCode::InvalidPayload, "text frames are not accepted"};
    const auto id = context.connection.id;
    switch (context.version) {
        case WireVersion::None: return on_hello(context, message);
        case WireVersion::Arena: return posted(arena::on_message_v1(id, context.tick, message));
        case WireVersion::ArenaV5: return posted(arena::on_message_v5(id, context.tick, message));
        case WireVersion::Schools: return posted(schools::on_message(id, context.tick, message));
        case WireVersion::Sprite: break;  // Sprite v1 sockets hand their messages to their match
    }
    return Reject{protocol::CloseCode::InternalError, "unknown session state", false};
}

}  // namespace hschool::server
