#include "sim/arena/arena_settings.hpp"

#include <cmath>

namespace hschool::sim::arena {
namespace {

bool in_range(float value, float low, float high) { return std::isfinite(value) && value >= low && value <= high; }

}  // namespace

std::optional<std::string_view> validate(const ArenaSettings& s) {
    if (s.tick_rate == 0) return "tick rate must be at least 1";
    if (!in_range(s.player_radius, 0.0f, kMaxRadius) || s.player_radius <= 0.0f)
        return "player radius must be positive and finite";
    // Spawn points sit at quarters of the field and must be inside the clamp box.
    if (!in_range(s.width, 4.0f * s.player_radius, kMaxWorldSide) ||
        !in_range(s.height, 4.0f * s.player_radius, kMaxWorldSide))
        return "world sides must be finite and at least four player radii";
    if (!in_range(s.player_speed, 0.0f, kMaxPlayerSpeed)) return "player speed must be finite and not negative";
    if (s.obstacle_count < 0 || s.obstacle_count > kMaxObstacleCount) return "obstacle count out of range";
    if (!in_range(s.obstacle_min_radius, 0.0f, kMaxRadius) || s.obstacle_min_radius <= 0.0f)
        return "obstacle minimum radius must be positive and finite";
    if (!in_range(s.obstacle_max_radius, s.obstacle_min_radius, kMaxRadius))
        return "obstacle maximum radius must be finite and not below the minimum";
    // Push-out is along the line from the obstacle's centre: a step that could cross the centre
    // would push an avatar through to the far side.
    if (s.player_speed / static_cast<float>(s.tick_rate) >= s.player_radius + s.obstacle_min_radius)
        return "one step must be shorter than the player radius plus the smallest obstacle radius";
    return std::nullopt;
}

}  // namespace hschool::sim::arena
