#pragma once
// Every bound content enforces, in one place; maps come from clients, packs from modders.
#include <cstddef>

namespace hschool::content::limits {

// Maps (client-supplied or shipped).
inline constexpr std::size_t kMaxMapNodes = 2000;       // far below the u16 node count of MapSnapshot
inline constexpr std::size_t kMaxMapLinks = 8000;       // four links per node is plenty for doors and stairs
inline constexpr std::size_t kMaxNodeIdBytes = 64;      // instance ids travel in every snapshot
inline constexpr std::size_t kMaxNodeNameChars = 60;    // custom display names, counted in characters
inline constexpr std::size_t kMaxDefIdBytes = 64;       // a def id referenced by a node

// Packs.
inline constexpr std::size_t kMaxPackFileBytes = 1024 * 1024;   // a JSONC file larger than this is a mistake
inline constexpr std::size_t kMaxPackIdBytes = 32;
inline constexpr std::size_t kMaxDefsPerPack = 1000;
inline constexpr std::size_t kMaxInheritanceDepth = 16;
inline constexpr std::size_t kMaxEntryCount = 255;              // one item or position repeated
inline constexpr std::size_t kMaxEntriesPerNode = 255;          // u8 item and position counts on the wire
inline constexpr std::size_t kMaxLabelChars = 80;
inline constexpr std::size_t kMaxJsonDepth = 32;

}  // namespace hschool::content::limits
