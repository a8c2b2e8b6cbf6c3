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

namespace {

// v1 and v5 answer alike after the Hello: a second Hello is refused, an Input becomes the loop's
// command, a Ping is answered here, not on the next tick (so the round trip measures the network),
// anything else is ignored. The versions differ in their types and field names only.
template <class Hello, class Input, class Ping, class Decoded, class ToInput, class ToPong>
MessageAnswer answer(const Decoded& decoded, const ToInput& to_input, const ToPong& to_pong) {
    if (!decoded) return protocol::Reject{CloseCode::InvalidPayload, protocol::describe(decoded.error())};
    return std::visit(
        [&](const auto& m) -> MessageAnswer {
            using M = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<M, Hello>) return protocol::Reject{CloseCode::InvalidPayload, "second Hello"};
            else if constexpr (std::is_same_v<M, Input>) return to_input(m);
            else if constexpr (std::is_same_v<M, Ping>) return protocol::Reply{to_pong(m)};
            else return protocol::Ignore{};
        },
        decoded.value());
}

}  // namespace

MessageAnswer on_message_v1(net::ConnectionId connection, std::uint32_t tick, protocol::ByteView message) {
    return answer<v1::Hello, v1::Input, v1::Ping>(
        v1::decode_client(message), [&](const v1::Input& m) { return cmd::ArenaInput{connection, m.sequence, m.buttons}; },
        [&](const v1::Ping& m) { return v1::encode(v1::Pong{m.client_time_ms, tick}); });
}

MessageAnswer on_message_v5(net::ConnectionId connection, std::uint32_t tick, protocol::ByteView message) {
    return answer<v5::Hello, v5::Input, v5::Ping>(
        v5::decode_client(message), [&](const v5::Input& m) { return cmd::ArenaInput{connection, m.seq, m.mask}; },
        [&](const v5::Ping& m) { return v5::encode(v5::Pong{m.client_time_ms, tick}); });
}

}  // namespace hschool::server::arena
