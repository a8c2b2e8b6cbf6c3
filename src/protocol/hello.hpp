#pragma once
// Byte 1 of Hello is the protocol version in every version, so the server can pick a handler
// before it knows the rest of the layout.
#include <cstdint>
#include <optional>

#include "protocol/bytes.hpp"

namespace hschool::protocol {

inline constexpr std::uint8_t kHelloId = 0x01;

// The version a Hello frame announces, or nothing when the frame is not a Hello at all.
inline std::optional<std::uint8_t> hello_version(ByteView frame) {
    if (frame.size() < 2 || frame[0] != kHelloId) return std::nullopt;
    return frame[1];
}

}  // namespace hschool::protocol
