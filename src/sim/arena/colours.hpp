#pragma once
// Entity colours, packed 0x00RRGGBB as the snapshot carries them.
#include <cstdint>

namespace hschool::sim::arena {

inline constexpr std::uint32_t kObstacleColour = 0x5B6472;  // slate: reads as scenery, not a player

// Golden-angle hue walk at fixed saturation and value: consecutive players get far-apart hues.
// Integer maths only, so the colour is the same on every machine.
inline constexpr std::uint32_t kGoldenAngleMillidegrees = 137508;
inline constexpr std::uint32_t kFullTurnMillidegrees = 360000;
inline constexpr std::uint32_t kPlayerSaturationPermille = 650;
inline constexpr std::uint32_t kPlayerValue = 242;  // 0.95 of 255

// Colour of the join_ordinal-th player to join the world (0 for the first).
std::uint32_t player_colour(std::uint32_t join_ordinal);

}  // namespace hschool::sim::arena
