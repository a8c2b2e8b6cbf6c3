#pragma once
// The compact watch stream's pixel blocks (protocol/hns_compact.hpp): each scene block (Snappy RGBA,
// art_cache.hpp) packed once per process as zlib at its widening scale, found again by content and
// shared by every match, stream and viewer. Thread-safe.
#include <cstdint>
#include <memory>

#include "protocol/bytes.hpp"
#include "render/hns/art_cache.hpp"

namespace hschool::render::hns {

struct CompactBlock {
    std::uint16_t width = 0, height = 0;  // wire pixels
    std::uint8_t scale = 1;
    protocol::Bytes zlib;
};
using CompactBlockPtr = std::shared_ptr<const CompactBlock>;

// Bounds like the art cache's: past them, blocks are still packed, just not kept.
inline constexpr std::size_t kMaxPackedBlocks = 4096;
inline constexpr std::size_t kMaxPackedBytes = 64u << 20;
// Block pointers a thread remembers, so a block seen before is not hashed again.
inline constexpr std::size_t kMaxThreadPackedBlocks = 1024;

// The compact form of `block` (width·height·4 RGBA). The same content gives the same pointer while
// the cache keeps it, which is what the stream's dictionary keys on.
CompactBlockPtr compact_block(const Block& block, std::uint16_t width, std::uint16_t height);
// How many blocks were packed so far (tests: sharing means this stops growing).
std::size_t compact_blocks_packed();

}  // namespace hschool::render::hns
