#pragma once
// Our own browser's watch stream for hide-and-seek (docs/hide-and-seek.md, "The compact watch
// stream"): Sprite v1's six server messages plus frame marks and a dictionary of zlib pixel
// blocks that sprites refer to, so a vision cone is sent once per direction instead of once per
// aim change. Negotiated by `stream=compact` on /global, /admin and /replay; the contract streams
// are untouched. Bytes only, standard library only: block_pixels.hpp (de)compresses the blocks.
#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "protocol/bytes.hpp"
#include "protocol/sprite_v1.hpp"

namespace hschool::protocol::hns_compact {

using sprite_v1::Error;
using sprite_v1::Result;

namespace id {
inline constexpr std::uint8_t kFrame = 0x10;
inline constexpr std::uint8_t kDefineBlock = 0x11;
inline constexpr std::uint8_t kUseBlock = 0x12;
inline constexpr std::uint8_t kRelabel = 0x13;
inline constexpr std::uint8_t kForgetBlock = 0x14;
}  // namespace id

namespace frame_flag {
inline constexpr std::uint8_t kKeyframe = 0x01;  // the messages that follow rebuild the whole board
inline constexpr std::uint8_t kResync = 0x02;    // frames before this one were skipped for this viewer
inline constexpr std::uint8_t kAll = kKeyframe | kResync;
}  // namespace frame_flag

// A block's pixels are drawn at 1/scale and widened by nearest neighbour: the board is drawn at 2×.
inline constexpr std::uint8_t kMaxBlockScale = 8;
// What a receiver keeps: the server's dictionary stays well under both (render/hns/compact_stream.hpp).
inline constexpr std::size_t kMaxLiveBlocks = 1024;
inline constexpr std::size_t kMaxLiveBlockBytes = 32u << 20;
// The fixed bytes of each message after its type byte (+ N for a block, + L for a label).
inline constexpr std::size_t kFrameBytes = 6;
inline constexpr std::size_t kDefineBlockFixedBytes = 14;
inline constexpr std::size_t kUseBlockFixedBytes = 7;

struct FrameMark {
    std::uint32_t tick = 0;  // the match's (or replay's) tick this frame shows
    std::uint8_t flags = 0;  // frame_flag bits
    bool operator==(const FrameMark&) const = default;
};
struct DefineBlock {
    std::uint16_t block_id = 0;
    std::uint16_t width = 0, height = 0;  // wire pixels, as a sprite made from it
    std::uint8_t scale = 1;
    Bytes zlib;  // zlib (RFC 1950) of (width/scale)·(height/scale)·4 straight RGBA bytes
    bool operator==(const DefineBlock&) const = default;
};
struct UseBlock {
    std::uint16_t sprite_id = 0;
    std::uint16_t block_id = 0;
    std::string label;
    bool operator==(const UseBlock&) const = default;
};
struct Relabel {
    std::uint16_t sprite_id = 0;
    std::string label;
    bool operator==(const Relabel&) const = default;
};
struct ForgetBlock {
    std::uint16_t block_id = 0;
    bool operator==(const ForgetBlock&) const = default;
};

using ServerMessage = std::variant<sprite_v1::DefineSprite, sprite_v1::DefineObject, sprite_v1::DeleteObject,
                                   sprite_v1::ClearObjects, sprite_v1::SetViewport, sprite_v1::DefineLayer, FrameMark,
                                   DefineBlock, UseBlock, Relabel, ForgetBlock>;

// The bytes a valid block may take: zlib's stored blocks never grow more than this.
std::size_t max_block_bytes(std::uint16_t width, std::uint16_t height, std::uint8_t scale);

// A whole WebSocket message, decoded to exhaustion; blocks are checked as far as their zlib header
// (block_pixels.hpp's decode_checked inflates every one).
Result<std::vector<ServerMessage>> decode(ByteView ws_message);
// Appends one message; fails (leaving `out` as it was) only on a message the decoder would refuse.
std::optional<Error> append(Bytes& out, const ServerMessage& message);
// One message's bytes; a message the decoder would refuse is our own bug and aborts.
Bytes encode(const ServerMessage& message);

}  // namespace hschool::protocol::hns_compact
