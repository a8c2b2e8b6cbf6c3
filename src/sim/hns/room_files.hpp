#pragma once
// Loads the shipped room documents from disk (src/sim/hns/rooms/room_<name>.json) and pins the
// chosen one into a config as mapSpec. The only hns code that reads files.
#include <string>

#include "sim/hns/config.hpp"
#include "sim/hns/expected.hpp"
#include "sim/hns/room.hpp"

namespace hschool::sim::hns {

inline constexpr std::size_t kMaxRoomFileBytes = 1 << 20;

// The folder the rooms were shipped in (the source tree's rooms/ unless HSCHOOL_HNS_ROOMS is set).
std::string rooms_dir();
// Reads one file's bytes; the error names the file.
Expected<std::string> read_room_text(const std::string& path);
// Reads and validates; the error names the file and the field.
Expected<Room> load_room_file(const std::string& path);
// Picks the room for (roomPool, seed) and pins it; a config with mapSpec already set is kept.
Expected<GameConfig> resolve_room_spec(GameConfig config, const std::string& dir = rooms_dir());

}  // namespace hschool::sim::hns
