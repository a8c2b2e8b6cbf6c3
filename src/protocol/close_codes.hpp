#pragma once
// WebSocket close codes (RFC 6455 §7.4.1), each defined here once: the transport and the games
// close with the numbers (net::WsConnection::close takes one), the codecs' answers name them as a
// CloseCode. Standard library only, so the transport may include it beside bytes.hpp.
#include <cstdint>

namespace hschool::protocol {

namespace close_code {
inline constexpr std::uint16_t kNormal = 1000;           // done: the session ends, a match is over
inline constexpr std::uint16_t kGoingAway = 1001;        // the server stops, or a match was deleted
inline constexpr std::uint16_t kProtocolError = 1002;    // a WebSocket violation; a Hello with an unsupported version
inline constexpr std::uint16_t kInvalidPayload = 1007;   // a malformed message or frame, a text frame, a second Hello
inline constexpr std::uint16_t kPolicyViolation = 1008;  // a deadline missed, a budget or queue overrun, refused after the upgrade
inline constexpr std::uint16_t kMessageTooBig = 1009;    // a message over the connection's limit
inline constexpr std::uint16_t kInternalError = 1011;    // the server could not do what it was asked (an unreadable replay)
inline constexpr std::uint16_t kTryAgainLater = 1013;    // the server is busy right now (the arena is full)
}  // namespace close_code

// 1013's reason when the arena itself is full: the web client words that case by it
// (client/src/arena/arenaConnection.ts ARENA_FULL_CLOSE_REASON); 1013's other reasons mean a busy server.
inline constexpr const char* kArenaFullReason = "arena is full";

// The same codes as the codecs' and sessions' answers carry them (answer.hpp's Reject).
enum class CloseCode : std::uint16_t {
    Normal = close_code::kNormal,
    GoingAway = close_code::kGoingAway,
    ProtocolError = close_code::kProtocolError,
    InvalidPayload = close_code::kInvalidPayload,
    PolicyViolation = close_code::kPolicyViolation,
    MessageTooBig = close_code::kMessageTooBig,
    InternalError = close_code::kInternalError,
    TryAgainLater = close_code::kTryAgainLater,
};

}  // namespace hschool::protocol
