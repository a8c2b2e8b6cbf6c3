#include <gtest/gtest.h>

#include <limits>

#include "sim/arena/arena_settings.hpp"

namespace hschool::sim::arena {
namespace {

TEST(ArenaSettings, DefaultsMatchTheSpecAndAreValid) {
    const ArenaSettings s;
    EXPECT_EQ(s.width, 1600.0f);
    EXPECT_EQ(s.height, 900.0f);
    EXPECT_EQ(s.player_speed, 240.0f);
    EXPECT_EQ(s.player_radius, 16.0f);
    EXPECT_EQ(s.obstacle_count, 12);
    EXPECT_EQ(s.seed, 1u);
    EXPECT_EQ(s.tick_rate, 20);
    EXPECT_FALSE(validate(s).has_value());
}

TEST(ArenaSettings, RejectsValuesThatCannotDriveAWorld) {
    auto broken = [](auto change) {
        ArenaSettings s;
        change(s);
        return validate(s).has_value();
    };
    EXPECT_TRUE(broken([](ArenaSettings& s) { s.tick_rate = 0; }));
    EXPECT_TRUE(broken([](ArenaSettings& s) { s.width = std::numeric_limits<float>::quiet_NaN(); }));
    EXPECT_TRUE(broken([](ArenaSettings& s) { s.height = 10.0f; }));
    EXPECT_TRUE(broken([](ArenaSettings& s) { s.player_radius = 0.0f; }));
    EXPECT_TRUE(broken([](ArenaSettings& s) { s.player_speed = -1.0f; }));
    EXPECT_TRUE(broken([](ArenaSettings& s) { s.obstacle_count = -1; }));
    EXPECT_TRUE(broken([](ArenaSettings& s) { s.obstacle_count = kMaxObstacleCount + 1; }));
    EXPECT_TRUE(broken([](ArenaSettings& s) { s.obstacle_max_radius = s.obstacle_min_radius - 1.0f; }));
    // A step longer than player radius + smallest obstacle radius could tunnel through an obstacle.
    EXPECT_TRUE(broken([](ArenaSettings& s) { s.player_speed = 40.0f * 20.0f; }));
}

}  // namespace
}  // namespace hschool::sim::arena
