#include "server/schools/schools_session.hpp"

#include <type_traits>

#include "protocol/v4.hpp"

namespace hschool::server::schools {
namespace {
namespace v4 = protocol::v4;
using protocol::CloseCode;
}  // namespace

HelloAnswer on_hello(const net::ConnectionRef& connection, const SchoolRights& rights, protocol::ByteView message) {
    const auto decoded = v4::decode_client(message);
    if (!decoded) return protocol::Reject{CloseCode::InvalidPayload, protocol::describe(decoded.error())};
    return cmd::SchoolsJoin{connection, v4::locale_of(std::get<v4::Hello>(*decoded)), rights};
}

MessageAnswer on_message(net::ConnectionId id, std::uint32_t tick, protocol::ByteView message) {
    auto decoded = v4::decode_client(message);
    if (!decoded) return protocol::Reject{CloseCode::InvalidPayload, protocol::describe(decoded.error())};
    return std::visit(
        [&](auto& m) -> MessageAnswer {
            using M = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<M, v4::Hello>) {
                return protocol::Reject{CloseCode::InvalidPayload, "second Hello"};
            } else if constexpr (std::is_same_v<M, v4::Ping>) {
                return protocol::Reply{v4::encode(v4::Pong{m.client_time_ms, tick})};
            } else if constexpr (std::is_same_v<M, v4::OpenSchool>) {
                return cmd::OpenSchool{id, m.school_id};
            } else if constexpr (std::is_same_v<M, v4::CloseSchool>) {
                return cmd::CloseSchool{id};
            } else if constexpr (std::is_same_v<M, v4::SetRunning>) {
                return cmd::SetRunning{id, m.running};
            } else if constexpr (std::is_same_v<M, v4::SetSpeed>) {
                return cmd::SetSpeed{id, m.speed_index};
            } else {
                return protocol::Ignore{};
            }
        },
        decoded.value());
}

}  // namespace hschool::server::schools
