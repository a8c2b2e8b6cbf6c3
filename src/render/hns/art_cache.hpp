#pragma once
// Compressed sprite blocks that repeat (cogs per team × rotation × scale, cones per aim, objects
// per kind × size × lock, padlock, ring, room bands) are drawn and compressed once per process and
// shared by every match, stream and viewer. Thread-safe: matches may render on several threads.
#include <memory>
#include <string>
#include <vector>

#include "protocol/bytes.hpp"
#include "sim/hns/room.hpp"
#include "sim/hns/state.hpp"

namespace hschool::render::hns {

using Block = std::shared_ptr<const protocol::Bytes>;

// Bounds the cache so hostile configs (many room documents, many cone sizes) cannot grow it forever:
// past either bound, blocks are still built, just not kept.
inline constexpr std::size_t kMaxCachedBlocks = 4096;
inline constexpr std::size_t kMaxCachedBytes = 256u << 20;
// Blocks a thread remembers without taking the shared lock (pointers into the shared cache).
inline constexpr std::size_t kMaxThreadCachedBlocks = 1024;
// Cone pixels are drawn for every this many brads of aim (64 directions): a cone's label carries the
// exact aim (the contract), its pixels are decoration, and a 2× cone costs ~10 ms to draw.
inline constexpr int kConeArtStepBrads = 4;

Block cog_block(sim::hns::Team team, int rot, int scale);
Block cone_block(int aim_brads, bool seeker, int range, int cone_deg, int scale);
Block object_block(sim::hns::ObjectKind kind, int w, int h, sim::hns::LockOwner locked_by, int scale);
Block padlock_block(int scale);
Block spotted_ring_block(int scale);
// The room as bands of kMapBandLogicalHeight rows; `room_key` identifies the room document.
std::vector<Block> band_blocks(const std::string& room_key, const sim::hns::Room& room, int scale);
// How many blocks were compressed so far (tests: sharing means this stops growing).
std::size_t blocks_compressed();

}  // namespace hschool::render::hns
