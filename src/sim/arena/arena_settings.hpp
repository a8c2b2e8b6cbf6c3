#pragma once
// Arena tunables with their defaults, and the rules a settings value must satisfy.
#include <cstdint>
#include <optional>
#include <string_view>

namespace hschool::sim::arena {

inline constexpr float kDefaultWidth = 1600.0f;
inline constexpr float kDefaultHeight = 900.0f;
inline constexpr float kDefaultPlayerSpeed = 240.0f;  // units per second
inline constexpr float kDefaultPlayerRadius = 16.0f;
inline constexpr int kDefaultObstacleCount = 12;
inline constexpr std::uint64_t kDefaultSeed = 1;
inline constexpr std::uint8_t kDefaultTickRate = 20;
inline constexpr float kDefaultObstacleMinRadius = 24.0f;
inline constexpr float kDefaultObstacleMaxRadius = 64.0f;

// Limits enforced by validate(): they keep the float maths finite and the replay fields in range.
inline constexpr float kMaxWorldSide = 1.0e6f;
inline constexpr float kMaxPlayerSpeed = 1.0e5f;
inline constexpr float kMaxRadius = 1.0e5f;
inline constexpr int kMaxObstacleCount = 4096;

struct ArenaSettings {
    float width = kDefaultWidth;
    float height = kDefaultHeight;
    float player_speed = kDefaultPlayerSpeed;
    float player_radius = kDefaultPlayerRadius;
    int obstacle_count = kDefaultObstacleCount;
    std::uint64_t seed = kDefaultSeed;
    std::uint8_t tick_rate = kDefaultTickRate;
    float obstacle_min_radius = kDefaultObstacleMinRadius;
    float obstacle_max_radius = kDefaultObstacleMaxRadius;
    bool operator==(const ArenaSettings&) const = default;
};

// Why the settings cannot drive a world, or nullopt when they can. Settings from outside (a
// replay file, a command line) must pass this before ArenaWorld sees them.
std::optional<std::string_view> validate(const ArenaSettings& settings);

// Seconds per step.
inline float step_seconds(const ArenaSettings& settings) { return 1.0f / static_cast<float>(settings.tick_rate); }

}  // namespace hschool::sim::arena
