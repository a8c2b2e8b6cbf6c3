#pragma once
// The arena replay byte format (docs/arena.md): a header, then one record per step.
// All numbers are little-endian, written with protocol::ByteWriter.
#include <array>
#include <cstddef>
#include <cstdint>

namespace hschool::sim::replay {

inline constexpr std::array<std::uint8_t, 4> kMagic = {'H', 'S', 'R', 'P'};
inline constexpr std::uint16_t kFormatVersion = 1;
// magic 4, version 2, seed 8, six f32 settings 24, obstacle count u16 2, tick rate u8 1.
inline constexpr std::size_t kHeaderBytes = 41;

inline constexpr std::uint8_t kTickMarker = 'T';  // starts every record, so garbage is caught early
inline constexpr std::size_t kRecordFixedBytes = 1 + 4 + 4 + 8;  // marker, tick, command count, hash

namespace command_tag {
inline constexpr std::uint8_t kJoin = 1;   // u8 name length, UTF-8 name
inline constexpr std::uint8_t kLeave = 2;  // u32 player id
inline constexpr std::uint8_t kInput = 3;  // u32 player id, u32 sequence, u8 buttons
}  // namespace command_tag

inline constexpr std::size_t kMinCommandBytes = 2;  // a join with an empty name
// Far above what a 20 Hz loop drains per tick; a larger count means the file is garbage.
inline constexpr std::uint32_t kMaxCommandsPerTick = 1u << 20;

}  // namespace hschool::sim::replay
