#pragma once
// Sprite v1 pixels: straight RGBA ⇄ a raw Snappy block (0x01's payload). Kept apart from the
// codec so that only what compresses or fully checks pixels links libsnappy.
#include <cstdint>
#include <optional>
#include <vector>

#include "protocol/bytes.hpp"
#include "protocol/sprite_v1.hpp"

namespace hschool::protocol::sprite_v1 {

// Compresses width·height·4 RGBA bytes; a wrong size or one above kMaxSpriteRgbaBytes is our bug.
Bytes compress_rgba(ByteView rgba);
// Decompresses a block that must hold exactly width·height·4 bytes.
Result<Bytes> decompress_rgba(ByteView block, std::uint16_t width, std::uint16_t height);
// The full check of a decoded 0x01: a valid Snappy block of w·h·4 bytes, or stripped (empty).
std::optional<Error> check_pixels(const DefineSprite& sprite);
// decode_server() plus check_pixels() on every 0x01: what a receiver that draws should use.
Result<std::vector<ServerMessage>> decode_server_checked(ByteView ws_message);

}  // namespace hschool::protocol::sprite_v1
