// The session dispatch (src/server/game_dispatch.*): a whole session's messages, whatever their
// bytes, must never crash it, and every answer must be one a session can carry out — a Promote
// only out of Hello, commands only for this connection, a Pong that decodes with the tick, a
// Reject with a reason and a close code the protocols use.
//
// Input: a sequence of messages, each a 1-byte header (bit 0: text frame; bits 1..7: length / 2)
// followed by that many bytes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <variant>

#include "protocol/v1.hpp"
#include "protocol/v4.hpp"
#include "protocol/v5.hpp"
#include "server/game_dispatch.hpp"

namespace {

namespace dispatch = hschool::server::dispatch;
namespace v1 = hschool::protocol::v1;
namespace v4 = hschool::protocol::v4;
namespace v5 = hschool::protocol::v5;
using hschool::server::WireVersion;
using hschool::protocol::CloseCode;

constexpr hschool::net::ConnectionId kConnection = 77;
constexpr std::uint32_t kTick = 123456;

void check(bool ok) {
    if (!ok) std::abort();
}

std::uint64_t connection_of(const hschool::server::Command& command) {
    return std::visit(
        [](const auto& c) -> std::uint64_t {
            using C = std::decay_t<decltype(c)>;
            if constexpr (requires { c.connection.id; }) {
                return c.connection.id;
            } else if constexpr (requires { c.connection; }) {
                return c.connection;
            } else {
                return kConnection;  // tasks carry no connection
            }
        },
        command);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    dispatch::Context context{WireVersion::None, {kConnection, nullptr, 0}, kTick};
    std::size_t at = 0;
    while (at < size) {
        const bool text = (data[at] & 1) != 0;
        const std::size_t length = std::min<std::size_t>((data[at] >> 1) * 2u, size - at - 1);
        const hschool::protocol::ByteView message(data + at + 1, length);
        at += 1 + length;

        const auto action = dispatch::on_message(context, message, text);
        if (const auto* promote = std::get_if<dispatch::Promote>(&action)) {
            check(context.version == WireVersion::None && !text);
            check(promote->version == WireVersion::Arena || promote->version == WireVersion::Schools ||
                  promote->version == WireVersion::ArenaV5);
            const std::size_t inbound = promote->version == WireVersion::Arena    ? v1::kMaxInboundFrameBytes
                                        : promote->version == WireVersion::ArenaV5 ? v5::kMaxInboundFrameBytes
                                                                                   : v4::kMaxInboundFrameBytes;
            check(promote->max_inbound_bytes == inbound);
            check(connection_of(promote->join) == kConnection);
            context.version = promote->version;
        } else if (const auto* post = std::get_if<dispatch::Post>(&action)) {
            check(context.version != WireVersion::None && !text);
            check(connection_of(post->command) == kConnection);
        } else if (const auto* reply = std::get_if<dispatch::Reply>(&action)) {
            check(context.version != WireVersion::None && !text);
            if (context.version == WireVersion::Arena) {
                const auto pong = v1::decode_server(reply->message);
                check(pong && std::get<v1::Pong>(*pong).server_tick == kTick);
            } else if (context.version == WireVersion::ArenaV5) {
                const auto pong = v5::decode_server(reply->message);
                check(pong && std::holds_alternative<v5::Pong>(*pong) && std::get<v5::Pong>(*pong).server_tick == kTick);
            } else {
                const auto pong = v4::decode_server(reply->message);
                check(pong && std::get<v4::Pong>(*pong).server_tick == kTick);
            }
        } else if (const auto* reject = std::get_if<dispatch::Reject>(&action)) {
            check(reject->reason != nullptr && reject->reason[0] != '\0');
            check(reject->code == CloseCode::InvalidPayload || reject->code == CloseCode::ProtocolError);
            return 0;  // the session closes here
        } else {
            check(context.version != WireVersion::None && !text);  // only unknown ids are ignored
        }
    }
    return 0;
}
