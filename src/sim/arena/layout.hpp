#pragma once
// Where avatars appear and where obstacles stand: a pure function of the settings.
#include <array>
#include <cstddef>
#include <vector>

#include "sim/arena/arena_settings.hpp"

namespace hschool::sim::arena {

struct Circle {
    float x = 0;
    float y = 0;
    float radius = 0;
};

struct Point {
    float x = 0;
    float y = 0;
};

// Spawn points: the centre first, then the other points of a 3x3 grid at quarters of the field.
inline constexpr std::size_t kSpawnPointCount = 9;
// Tries per obstacle before it is left out, so a crowded field cannot loop forever.
inline constexpr int kMaxPlacementAttempts = 64;
// Extra room kept between an obstacle and a wall, another obstacle's reach or a spawn point.
inline constexpr float kObstacleClearance = 4.0f;

std::array<Point, kSpawnPointCount> spawn_points(const ArenaSettings& settings);

// Up to settings.obstacle_count circles from settings.seed. Gaps between obstacles and to the
// walls are wider than an avatar, so pushing an avatar out of one never pushes it into another
// or out of the field. An obstacle that finds no room in kMaxPlacementAttempts is left out.
std::vector<Circle> place_obstacles(const ArenaSettings& settings);

}  // namespace hschool::sim::arena
