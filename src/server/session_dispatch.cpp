#include "server/session_dispatch.hpp"

#include <type_traits>

#include "protocol/hello.hpp"
#include "protocol/v1.hpp"
#include "protocol/v4.hpp"
#include "protocol/v5.hpp"

namespace hschool::server::dispatch {
namespace {

namespace v1 = protocol::v1;
namespace v4 = protocol::v4;
namespace v5 = protocol::v5;
using protocol::CloseCode;

Action on_hello(const Context& context, protocol::ByteView message) {
    const auto version = protocol::hello_version(message);
    if (!version) return Reject{CloseCode::InvalidPayload, "the first frame must be Hello"};
    if (*version == v1::kVersion) {
        const auto decoded = v1::decode_client(message);
        if (!decoded) return Reject{CloseCode::InvalidPayload, protocol::describe(decoded.error())};
        return Promote{WireVersion::Arena, v1::kMaxInboundFrameBytes,
                       cmd::ArenaJoin{context.connection, std::get<v1::Hello>(*decoded).name}};
    }
    if (*version == v5::kVersion) {
        const auto decoded = v5::decode_client(message);
        if (!decoded) return Reject{CloseCode::InvalidPayload, protocol::describe(decoded.error())};
        return Promote{WireVersion::ArenaV5, v5::kMaxInboundFrameBytes,
                       cmd::ArenaJoinV5{context.connection, std::get<v5::Hello>(*decoded).name}};
    }
    if (*version == v4::kVersion) {
        const auto decoded = v4::decode_client(message);
        if (!decoded) return Reject{CloseCode::InvalidPayload, protocol::describe(decoded.error())};
        return Promote{WireVersion::Schools, v4::kMaxInboundFrameBytes,
                       cmd::SchoolsJoin{context.connection, v4::locale_of(std::get<v4::Hello>(*decoded)),
                                        context.rights ? *context.rights : SchoolRights{}}};
    }
    return Reject{CloseCode::ProtocolError, "unsupported protocol version", false};
}

Action on_arena(const Context& context, protocol::ByteView message) {
    auto decoded = v1::decode_client(message);
    if (!decoded) return Reject{CloseCode::InvalidPayload, protocol::describe(decoded.error())};
    return std::visit(
        [&](auto& m) -> Action {
            using M = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<M, v1::Hello>) {
                return Reject{CloseCode::InvalidPayload, "second Hello"};
            } else if constexpr (std::is_same_v<M, v1::Input>) {
                return Post{cmd::ArenaInput{context.connection.id, m.sequence, m.buttons}};
            } else if constexpr (std::is_same_v<M, v1::Ping>) {
                // Answered here, not on the next tick, so the round trip measures the network.
                return Reply{v1::encode(v1::Pong{m.client_time_ms, context.tick})};
            } else {
                return Ignore{};
            }
        },
        decoded.value());
}

Action on_arena_v5(const Context& context, protocol::ByteView message) {
    auto decoded = v5::decode_client(message);
    if (!decoded) return Reject{CloseCode::InvalidPayload, protocol::describe(decoded.error())};
    return std::visit(
        [&](auto& m) -> Action {
            using M = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<M, v5::Hello>) {
                return Reject{CloseCode::InvalidPayload, "second Hello"};
            } else if constexpr (std::is_same_v<M, v5::Input>) {
                return Post{cmd::ArenaInput{context.connection.id, m.seq, m.mask}};
            } else if constexpr (std::is_same_v<M, v5::Ping>) {
                return Reply{v5::encode(v5::Pong{m.client_time_ms, context.tick})};
            } else {
                return Ignore{};
            }
        },
        decoded.value());
}

Action on_schools(const Context& context, protocol::ByteView message) {
    auto decoded = v4::decode_client(message);
    if (!decoded) return Reject{CloseCode::InvalidPayload, protocol::describe(decoded.error())};
    const ConnectionId id = context.connection.id;
    return std::visit(
        [&](auto& m) -> Action {
            using M = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<M, v4::Hello>) {
                return Reject{CloseCode::InvalidPayload, "second Hello"};
            } else if constexpr (std::is_same_v<M, v4::Ping>) {
                return Reply{v4::encode(v4::Pong{m.client_time_ms, context.tick})};
            } else if constexpr (std::is_same_v<M, v4::OpenSchool>) {
                return Post{cmd::OpenSchool{id, m.school_id}};
            } else if constexpr (std::is_same_v<M, v4::CloseSchool>) {
                return Post{cmd::CloseSchool{id}};
            } else if constexpr (std::is_same_v<M, v4::SetRunning>) {
                return Post{cmd::SetRunning{id, m.running}};
            } else if constexpr (std::is_same_v<M, v4::SetSpeed>) {
                return Post{cmd::SetSpeed{id, m.speed_index}};
            } else {
                return Ignore{};
            }
        },
        decoded.value());
}

}  // namespace

Action on_message(const Context& context, protocol::ByteView message, bool text) {
    if (text) return Reject{CloseCode::InvalidPayload, "text frames are not accepted"};
    switch (context.version) {
        case WireVersion::None: return on_hello(context, message);
        case WireVersion::Arena: return on_arena(context, message);
        case WireVersion::Schools: return on_schools(context, message);
        case WireVersion::ArenaV5: return on_arena_v5(context, message);
        case WireVersion::Sprite: break;  // Sprite v1 sockets hand their messages to their match
    }
    return Reject{CloseCode::InternalError, "unknown session state", false};
}

}  // namespace hschool::server::dispatch
