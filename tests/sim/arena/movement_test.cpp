#include <gtest/gtest.h>

#include <cmath>

#include "arena_test_support.hpp"

namespace hschool::sim::arena {
namespace {

using namespace testing;
namespace buttons = protocol::v1::buttons;

// 240 units/s at 20 Hz: 12 units per tick, from the spec's defaults, not from the code.
constexpr float kStep = 240.0f / 20.0f;
constexpr float kCentreX = 800.0f;
constexpr float kCentreY = 450.0f;

struct DirectionCase {
    std::uint8_t mask;
    float dx;
    float dy;
};

class MovementPerMask : public ::testing::TestWithParam<DirectionCase> {};

TEST_P(MovementPerMask, OneTickMovesOneStepThatWay) {
    ArenaWorld world(empty_field());
    const auto id = world.apply(JoinCommand{"Ann"});
    press(world, id, 1, GetParam().mask);
    world.step();
    const auto e = entity(world, id);
    EXPECT_NEAR(e.x, kCentreX + GetParam().dx * kStep, kTolerance);
    EXPECT_NEAR(e.y, kCentreY + GetParam().dy * kStep, kTolerance);
}

// Screen coordinates: up is negative y.
INSTANTIATE_TEST_SUITE_P(Directions, MovementPerMask,
                         ::testing::Values(DirectionCase{buttons::kUp, 0, -1}, DirectionCase{buttons::kDown, 0, 1},
                                           DirectionCase{buttons::kLeft, -1, 0}, DirectionCase{buttons::kRight, 1, 0},
                                           DirectionCase{0, 0, 0},
                                           DirectionCase{buttons::kUp | buttons::kDown, 0, 0},
                                           DirectionCase{buttons::kLeft | buttons::kRight, 0, 0}));

TEST(Movement, DiagonalIsNotFasterThanStraight) {
    ArenaWorld world(empty_field());
    const auto id = world.apply(JoinCommand{"Ann"});
    press(world, id, 1, buttons::kDown | buttons::kRight);
    float x = kCentreX, y = kCentreY;
    for (int tick = 0; tick < 10; ++tick) {
        world.step();
        const auto e = entity(world, id);
        EXPECT_NEAR(distance(x, y, e.x, e.y), kStep, kTolerance) << "tick " << tick;
        EXPECT_NEAR(e.x - x, kStep / std::sqrt(2.0f), kTolerance);
        EXPECT_NEAR(e.y - y, kStep / std::sqrt(2.0f), kTolerance);
        x = e.x;
        y = e.y;
    }
}

TEST(Movement, MaskIsLevelBasedAndAppliesUntilItChanges) {
    ArenaWorld world(empty_field());
    const auto id = world.apply(JoinCommand{"Ann"});
    press(world, id, 1, buttons::kRight);
    for (int tick = 0; tick < 5; ++tick) world.step();
    EXPECT_NEAR(entity(world, id).x, kCentreX + 5 * kStep, kTolerance);
    press(world, id, 2, 0);
    world.step();
    EXPECT_NEAR(entity(world, id).x, kCentreX + 5 * kStep, kTolerance);
}

TEST(Movement, AvatarCentreStaysInsideTheFieldOnEveryEdge) {
    const ArenaSettings settings = empty_field();
    const float r = settings.player_radius;
    const std::uint8_t masks[] = {buttons::kUp | buttons::kLeft, buttons::kDown | buttons::kRight,
                                  buttons::kUp | buttons::kRight, buttons::kDown | buttons::kLeft};
    for (std::uint8_t mask : masks) {
        ArenaWorld world(settings);
        const auto id = world.apply(JoinCommand{"Ann"});
        press(world, id, 1, mask);
        for (int tick = 0; tick < 200; ++tick) {
            world.step();
            const auto e = entity(world, id);
            ASSERT_GE(e.x, r);
            ASSERT_LE(e.x, settings.width - r);
            ASSERT_GE(e.y, r);
            ASSERT_LE(e.y, settings.height - r);
        }
        const auto e = entity(world, id);
        // 200 ticks cover more than the field, so the avatar ends pressed into the corner.
        EXPECT_EQ(e.x, (mask & buttons::kLeft) ? r : settings.width - r);
        EXPECT_EQ(e.y, (mask & buttons::kUp) ? r : settings.height - r);
    }
}

TEST(Movement, LowerSequenceIsIgnoredAndEqualIsAccepted) {
    ArenaWorld world(empty_field());
    const auto id = world.apply(JoinCommand{"Ann"});
    press(world, id, 5, buttons::kRight);
    press(world, id, 4, buttons::kLeft);  // late packet: ignored
    world.step();
    EXPECT_NEAR(entity(world, id).x, kCentreX + kStep, kTolerance);
    press(world, id, 5, buttons::kDown);  // same sequence: accepted
    world.step();
    EXPECT_NEAR(entity(world, id).x, kCentreX + kStep, kTolerance);
    EXPECT_NEAR(entity(world, id).y, kCentreY + kStep, kTolerance);
}

TEST(Movement, UnknownButtonBitsAreIgnored) {
    ArenaWorld world(empty_field());
    const auto id = world.apply(JoinCommand{"Ann"});
    press(world, id, 1, static_cast<std::uint8_t>(0xF0 | buttons::kRight));
    world.step();
    EXPECT_NEAR(entity(world, id).x, kCentreX + kStep, kTolerance);
    EXPECT_NEAR(entity(world, id).y, kCentreY, kTolerance);
    press(world, id, 2, 0xF0);
    world.step();
    EXPECT_NEAR(entity(world, id).x, kCentreX + kStep, kTolerance);

    // Only the known bits reach the state: 0xF1 and 0x01 give the same world.
    ArenaWorld with_junk(empty_field()), clean(empty_field());
    press(with_junk, with_junk.apply(JoinCommand{"A"}), 1, 0xF1);
    press(clean, clean.apply(JoinCommand{"A"}), 1, 0x01);
    EXPECT_EQ(with_junk.state_hash(), clean.state_hash());
}

TEST(Movement, InputForUnknownPlayerChangesNothing) {
    ArenaWorld world(empty_field());
    world.apply(JoinCommand{"Ann"});
    const auto before = world.state_hash();
    EXPECT_EQ(world.apply(InputCommand{999, 1, buttons::kRight}), kNoId);
    EXPECT_EQ(world.apply(LeaveCommand{999}), kNoId);
    EXPECT_EQ(world.state_hash(), before);
}

}  // namespace
}  // namespace hschool::sim::arena
