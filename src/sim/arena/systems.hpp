#pragma once
// Arena systems: plain functions, run in the order of kArenaSystems and nowhere else.
#include <array>

#include "sim/arena/arena_settings.hpp"
#include "sim/arena/components.hpp"

namespace hschool::sim::arena {

struct StepContext {
    const ArenaSettings& settings;
    float dt;  // seconds per step
};

using System = void (*)(ArenaRegistry&, const StepContext&);

// 1/sqrt(2): a diagonal mask moves at the same speed as a straight one.
inline constexpr float kDiagonalScale = 0.70710678118654752f;

void player_input_system(ArenaRegistry& registry, const StepContext& context);        // mask -> velocity
void movement_system(ArenaRegistry& registry, const StepContext& context);            // velocity -> position
void obstacle_collision_system(ArenaRegistry& registry, const StepContext& context);  // push out of circles
void world_bounds_system(ArenaRegistry& registry, const StepContext& context);        // clamp to the field

inline constexpr std::array<System, 4> kArenaSystems = {
    &player_input_system,
    &movement_system,
    &obstacle_collision_system,
    &world_bounds_system,
};

}  // namespace hschool::sim::arena
