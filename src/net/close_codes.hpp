#pragma once
// WebSocket close codes the transport itself sends (RFC 6455 §7.4.1); a game may send its own.
#include <cstdint>

namespace hschool::net::close_code {

inline constexpr std::uint16_t kNormal = 1000;
inline constexpr std::uint16_t kGoingAway = 1001;
inline constexpr std::uint16_t kProtocolError = 1002;
inline constexpr std::uint16_t kInvalidPayload = 1007;
inline constexpr std::uint16_t kPolicyViolation = 1008;
inline constexpr std::uint16_t kMessageTooBig = 1009;
inline constexpr std::uint16_t kInternalError = 1011;
inline constexpr std::uint16_t kTryAgainLater = 1013;

}  // namespace hschool::net::close_code
