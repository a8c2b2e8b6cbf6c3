#include <gtest/gtest.h>

#include <vector>

#include "arena_test_support.hpp"
#include "sim/arena/layout.hpp"
#include "sim/arena/systems.hpp"

namespace hschool::sim::arena {
namespace {

using namespace testing;
namespace buttons = protocol::v1::buttons;
namespace kind = protocol::v1::kind;

constexpr std::uint64_t kSeedsToCheck = 300;

std::vector<protocol::v1::EntityState> obstacles_of(const ArenaWorld& world) {
    protocol::v1::Snapshot snapshot;
    world.capture_snapshot(snapshot);
    std::vector<protocol::v1::EntityState> out;
    for (const auto& e : snapshot.entities)
        if (e.kind == kind::kObstacle) out.push_back(e);
    return out;
}

TEST(Obstacles, NeverOverlapEachOtherSpawnPointsOrWallsForManySeeds) {
    for (std::uint64_t seed = 0; seed < kSeedsToCheck; ++seed) {
        ArenaSettings settings;
        settings.seed = seed;
        const ArenaWorld world(settings);
        const auto obstacles = obstacles_of(world);
        EXPECT_EQ(obstacles.size(), static_cast<std::size_t>(settings.obstacle_count)) << "seed " << seed;
        const float avatar = 2 * settings.player_radius;
        for (std::size_t i = 0; i < obstacles.size(); ++i) {
            const auto& a = obstacles[i];
            EXPECT_GE(a.radius, settings.obstacle_min_radius);
            EXPECT_LE(a.radius, settings.obstacle_max_radius);
            // Room for an avatar between the obstacle and every wall.
            EXPECT_GE(a.x - a.radius, avatar) << "seed " << seed;
            EXPECT_LE(a.x + a.radius, settings.width - avatar) << "seed " << seed;
            EXPECT_GE(a.y - a.radius, avatar) << "seed " << seed;
            EXPECT_LE(a.y + a.radius, settings.height - avatar) << "seed " << seed;
            for (std::size_t j = i + 1; j < obstacles.size(); ++j) {
                const auto& b = obstacles[j];
                // Not just apart: an avatar fits between any two.
                EXPECT_GE(distance(a.x, a.y, b.x, b.y), a.radius + b.radius + avatar) << "seed " << seed;
            }
            for (const Point& spawn : spawn_points(settings))
                EXPECT_GE(distance(a.x, a.y, spawn.x, spawn.y), a.radius + settings.player_radius) << "seed " << seed;
        }
    }
}

TEST(Obstacles, SameSeedSameLayoutDifferentSeedDifferentLayout) {
    ArenaSettings settings;
    settings.seed = 42;
    const auto first = obstacles_of(ArenaWorld(settings));
    const auto again = obstacles_of(ArenaWorld(settings));
    settings.seed = 43;
    const auto other = obstacles_of(ArenaWorld(settings));
    EXPECT_EQ(first, again);
    EXPECT_NE(first, other);
}

// Steers straight at the nearest obstacle for many ticks: the avatar must end up touching some
// obstacle and never overlap any of them on the way.
TEST(Obstacles, AvatarIsPushedOutNeverThrough) {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        ArenaSettings settings;
        settings.seed = seed;
        ArenaWorld world(settings);
        const auto obstacles = obstacles_of(world);
        const auto id = world.apply(JoinCommand{"Ann"});
        const auto start = entity(world, id);
        const protocol::v1::EntityState* target = &obstacles.front();
        for (const auto& o : obstacles)
            if (distance(o.x, o.y, start.x, start.y) < distance(target->x, target->y, start.x, start.y)) target = &o;

        const float reach = settings.player_radius + target->radius;
        for (std::uint32_t tick = 1; tick <= 300; ++tick) {
            const auto me = entity(world, id);
            std::uint8_t mask = 0;
            constexpr float kDeadZone = 1.0f;
            if (target->x - me.x > kDeadZone) mask |= buttons::kRight;
            if (me.x - target->x > kDeadZone) mask |= buttons::kLeft;
            if (target->y - me.y > kDeadZone) mask |= buttons::kDown;
            if (me.y - target->y > kDeadZone) mask |= buttons::kUp;
            press(world, id, tick, mask);
            world.step();
            const auto after = entity(world, id);
            for (const auto& o : obstacles)
                ASSERT_GE(distance(after.x, after.y, o.x, o.y), settings.player_radius + o.radius - kTolerance)
                    << "seed " << seed << " tick " << tick;
        }
        const auto end = entity(world, id);
        float closest_gap = distance(end.x, end.y, target->x, target->y) - reach;
        for (const auto& o : obstacles)
            closest_gap = std::min(closest_gap, distance(end.x, end.y, o.x, o.y) - settings.player_radius - o.radius);
        EXPECT_LT(closest_gap, 1.0f) << "seed " << seed << ": the avatar never reached an obstacle";
    }
}

// System-level: build the registry by hand so the avatar can start inside an obstacle.
struct PushOutCase {
    float start_x;
    float start_y;
    float expected_x;
    float expected_y;
};

class PushOut : public ::testing::TestWithParam<PushOutCase> {};

TEST_P(PushOut, MovesTheAvatarToTheNearestPointOutsideTheObstacle) {
    ArenaRegistry registry;
    const auto obstacle = registry.create();
    registry.add(obstacle, Position{100, 100});
    registry.add(obstacle, Renderable{kind::kObstacle, 30, 0});
    registry.add(obstacle, StaticObstacle{});
    const auto avatar = registry.create();
    registry.add(avatar, Position{GetParam().start_x, GetParam().start_y});
    registry.add(avatar, Renderable{kind::kPlayer, 16, 0});
    registry.add(avatar, PlayerControl{});
    const ArenaSettings settings;
    obstacle_collision_system(registry, StepContext{settings, 0.05f});
    const Position& p = *registry.find<Position>(avatar);
    EXPECT_NEAR(p.x, GetParam().expected_x, kTolerance);
    EXPECT_NEAR(p.y, GetParam().expected_y, kTolerance);
    EXPECT_EQ(registry.find<Position>(obstacle)->x, 100.0f);  // obstacles never move
}

// Reach is 16 + 30 = 46. Dead centre has no direction: +x is the fixed tie-break.
INSTANTIATE_TEST_SUITE_P(Cases, PushOut,
                         ::testing::Values(PushOutCase{100, 100, 146, 100}, PushOutCase{110, 100, 146, 100},
                                           PushOutCase{100, 80, 100, 54}, PushOutCase{90, 100, 54, 100},
                                           PushOutCase{110, 110, 100 + 46 / 1.41421356f, 100 + 46 / 1.41421356f},
                                           PushOutCase{146, 100, 146, 100}, PushOutCase{200, 200, 200, 200}));

TEST(Systems, RunInTheDocumentedOrder) {
    ASSERT_EQ(kArenaSystems.size(), 4u);
    EXPECT_EQ(kArenaSystems[0], &player_input_system);
    EXPECT_EQ(kArenaSystems[1], &movement_system);
    EXPECT_EQ(kArenaSystems[2], &obstacle_collision_system);
    EXPECT_EQ(kArenaSystems[3], &world_bounds_system);
}

}  // namespace
}  // namespace hschool::sim::arena
