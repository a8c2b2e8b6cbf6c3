#include "sim/arena/layout.hpp"

#include "sim/arena/prng.hpp"

namespace hschool::sim::arena {
namespace {

bool farther_than(float ax, float ay, float bx, float by, float distance) {
    const float dx = ax - bx;
    const float dy = ay - by;
    return dx * dx + dy * dy >= distance * distance;
}

}  // namespace

std::array<Point, kSpawnPointCount> spawn_points(const ArenaSettings& s) {
    const float left = s.width * 0.25f, middle = s.width * 0.5f, right = s.width * 0.75f;
    const float top = s.height * 0.25f, centre = s.height * 0.5f, bottom = s.height * 0.75f;
    return {{{middle, centre},
             {left, top},
             {middle, top},
             {right, top},
             {left, centre},
             {right, centre},
             {left, bottom},
             {middle, bottom},
             {right, bottom}}};
}

std::vector<Circle> place_obstacles(const ArenaSettings& s) {
    SplitMix64 rng(s.seed);
    const auto spawns = spawn_points(s);
    const float avatar = 2.0f * s.player_radius;
    std::vector<Circle> placed;
    placed.reserve(static_cast<std::size_t>(s.obstacle_count));
    for (int i = 0; i < s.obstacle_count; ++i) {
        for (int attempt = 0; attempt < kMaxPlacementAttempts; ++attempt) {
            const float radius = rng.uniform(s.obstacle_min_radius, s.obstacle_max_radius);
            const float margin = radius + avatar + kObstacleClearance;
            const float x = rng.uniform(margin, s.width - margin);
            const float y = rng.uniform(margin, s.height - margin);
            if (2.0f * margin > s.width || 2.0f * margin > s.height) continue;
            bool fits = true;
            for (const Circle& other : placed)
                fits = fits && farther_than(x, y, other.x, other.y, radius + other.radius + avatar + kObstacleClearance);
            for (const Point& spawn : spawns)
                fits = fits && farther_than(x, y, spawn.x, spawn.y, radius + s.player_radius + kObstacleClearance);
            if (fits) {
                placed.push_back({x, y, radius});
                break;
            }
        }
    }
    return placed;
}

}  // namespace hschool::sim::arena
