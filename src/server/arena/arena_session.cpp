#include "server/arena/arena_session.hpp"

#include <type_traits>

#include "protocol/v1.hpp"
#include "protocol/v5.hpp"

namespace hschool::server::arena {
namespace {
namespace v1 = protocol::v1;
namespace v5 = protocol::v5;
using protocol::CloseCode;
}  // namespace

HelloAnswer on_hello_v1(const net::ConnectionRef& connection, protocol::ByteView message) {
    const auto decoded = v1::decode_client(message);
    if (!decoded) return protocol::Reject{CloseCode::InvalidPayload, protocol::describe(decoded.error())};
    return cmd::ArenaJoin{connection, std::get<v1::Hello>(*decoded).name};
}

HelloAnswer on_hello_v5(const net::ConnectionRef& connection, protocol::ByteView message) {
    const auto decoded = v5::decode_client(message);
    if (!decoded) return protocol::Reject{CloseCode::InvalidPayload, protocol::describe(decoded.error())};
    return cmd::ArenaJoinV5{connection, std::get<v5::Hello>(*decoded).name};
}

MessageAnswer on_message_v1(net::ConnectionId connection, std::uint32_t tick, protocol::ByteView message) {
    auto decoded = v1::decode_client(message);
    if (!decoded) return protocol::Reject{CloseCode::InvalidPayload, protocol::describe(decoded.error())};
    return std::visit(
        [&](auto& m) -> MessageAnswer {
            using M = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<M, v1::Hello>) {
                return protocol::Reject{CloseCode::InvalidPayload, "second Hello"};
            } else if constexpr (std::is_same_v<M, v1::Input>) {
                return cmd::ArenaInput{connection, m.sequence, m.buttons};
            } else if constexpr (std::is_same_v<M, v1::Ping>) {
                // Answered here, not on the next tick, so the round trip measures the network.
                return protocol::Reply{v1::encode(v1::Pong{m.client_time_ms, tick})};
            } else {
                return protocol::Ignore{};
            }
        },
        decoded.value());
}

MessageAnswer on_message_v5(net::ConnectionId connection, std::uint32_t tick, protocol::ByteView message) {
    auto decoded = v5::decode_client(message);
    if (!decoded) return protocol::Reject{CloseCode::InvalidPayload, protocol::describe(decoded.error())};
    return std::visit(
        [&](auto& m) -> MessageAnswer {
            using M = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<M, v5::Hello>) {
                return protocol::Reject{CloseCode::InvalidPayload, "second Hello"};
            } else if constexpr (std::is_same_v<M, v5::Input>) {
                return cmd::ArenaInput{connection, m.seq, m.mask};
            } else if constexpr (std::is_same_v<M, v5::Ping>) {
                return protocol::Reply{v5::encode(v5::Pong{m.client_time_ms, tick})};
            } else {
                return protocol::Ignore{};
            }
        },
        decoded.value());
}

}  // namespace hschool::server::arena
