#pragma once
// The compact stream's pixel blocks (hns_compact.hpp): straight RGBA ⇄ a zlib stream of the image
// at 1/scale. The board is drawn at 2× by widening each pixel, so a block keeps the small image and
// the receiver widens it again: the same pixels, a quarter of the bytes before compression.
#include <cstdint>
#include <optional>
#include <vector>

#include "protocol/bytes.hpp"
#include "protocol/hns_compact.hpp"

namespace hschool::protocol::hns_compact {

// zlib's strongest setting: a block is packed once per process and sent to every viewer.
inline constexpr int kBlockZlibLevel = 9;

struct PackedBlock {
    std::uint8_t scale = 1;
    Bytes zlib;
};

// The largest scale ≤ kMaxBlockScale by which `rgba` (width·height·4) is an exact nearest-neighbour
// widening, and the zlib of the image it widens. A wrong size is our bug.
PackedBlock pack_block(ByteView rgba, std::uint16_t width, std::uint16_t height);
// The block's width·height·4 RGBA: BadZlib for a stream that does not inflate, SizeMismatch for one
// that inflates to another length (it stops at the expected length: a hostile stream costs no more).
Result<Bytes> unpack_block(const DefineBlock& block);
// unpack_block's verdict without keeping the pixels.
std::optional<Error> check_block(const DefineBlock& block);
// decode() plus the full check of every block and every Define Sprite's Snappy pixels: what a
// receiver that draws should use.
Result<std::vector<ServerMessage>> decode_checked(ByteView ws_message);

}  // namespace hschool::protocol::hns_compact
