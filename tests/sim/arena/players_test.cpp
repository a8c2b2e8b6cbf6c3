#include <gtest/gtest.h>

#include <set>

#include "arena_test_support.hpp"
#include "sim/arena/colours.hpp"

namespace hschool::sim::arena {
namespace {

using namespace testing;
namespace kind = protocol::v1::kind;

TEST(Players, JoinSpawnsAPlayerAtTheCentreAndLeaveRemovesIt) {
    ArenaWorld world(empty_field());
    EXPECT_EQ(world.entity_count(), 0u);
    const auto id = world.apply(JoinCommand{"Ann"});
    EXPECT_NE(id, kNoId);
    ASSERT_TRUE(find_entity(world, id).has_value());
    const auto e = entity(world, id);
    EXPECT_EQ(e.kind, kind::kPlayer);
    EXPECT_EQ(e.x, 800.0f);
    EXPECT_EQ(e.y, 450.0f);
    EXPECT_EQ(e.radius, 16.0f);
    EXPECT_EQ(world.entity_count(), 1u);

    EXPECT_EQ(world.apply(LeaveCommand{id}), kNoId);
    EXPECT_FALSE(find_entity(world, id).has_value());
    EXPECT_FALSE(world.has_player(id));
    EXPECT_EQ(world.entity_count(), 0u);
}

TEST(Players, ObstaclesComeFirstAndPlayerIdsFollow) {
    ArenaWorld world{ArenaSettings{}};
    protocol::v1::Snapshot snapshot;
    world.capture_snapshot(snapshot);
    ASSERT_EQ(snapshot.entities.size(), 12u);
    for (std::size_t i = 0; i < snapshot.entities.size(); ++i) {
        EXPECT_EQ(snapshot.entities[i].id, i + 1);
        EXPECT_EQ(snapshot.entities[i].kind, kind::kObstacle);
        EXPECT_EQ(snapshot.entities[i].colour, kObstacleColour);
    }
    EXPECT_EQ(world.apply(JoinCommand{"Ann"}), 13u);
}

TEST(Players, IdsAreNeverReusedAfterLeave) {
    ArenaWorld world(empty_field());
    std::set<std::uint32_t> seen;
    std::uint32_t previous = 0;
    for (int round = 0; round < 50; ++round) {
        const auto id = world.apply(JoinCommand{"Ann"});
        EXPECT_GT(id, previous);
        EXPECT_TRUE(seen.insert(id).second);
        previous = id;
        if (round % 2 == 0) world.apply(LeaveCommand{id});
    }
}

TEST(Players, LeaveForAnObstacleIdIsIgnored) {
    ArenaWorld world{ArenaSettings{}};
    const auto before = world.state_hash();
    world.apply(LeaveCommand{1});  // id 1 is an obstacle, not a player
    EXPECT_EQ(world.entity_count(), 12u);
    EXPECT_EQ(world.state_hash(), before);
    ASSERT_TRUE(find_entity(world, 1).has_value());
}

TEST(Players, EmptyNameGetsADefaultAndOthersAreKept) {
    ArenaWorld world(empty_field());
    const auto ann = world.apply(JoinCommand{"Аня"});
    const auto nameless = world.apply(JoinCommand{""});
    EXPECT_EQ(world.player_name(ann).value_or(""), "Аня");
    EXPECT_EQ(world.player_name(nameless).value_or(""), "Player " + std::to_string(nameless));
    EXPECT_FALSE(world.player_name(12345).has_value());
}

TEST(Players, SpawnPointsCycleThroughTheGrid) {
    ArenaWorld world(empty_field());
    // Centre first, then the 3x3 grid at quarters of 1600 x 900 in reading order.
    const float expected[][2] = {{800, 450}, {400, 225}, {800, 225}, {1200, 225}, {400, 450},
                                 {1200, 450}, {400, 675}, {800, 675}, {1200, 675}, {800, 450}};
    for (const auto& at : expected) {
        const auto e = entity(world, world.apply(JoinCommand{"x"}));
        EXPECT_EQ(e.x, at[0]);
        EXPECT_EQ(e.y, at[1]);
    }
}

TEST(Players, ColoursAreDistinctAndFollowTheGoldenAngleWalk) {
    // Worked by hand: hue 0 at S=0.65, V=242 gives (242, 84, 84); hue 137.508 deg lies in the
    // green sextant: (84, 242, 242 * (1 - 0.65 * (1 - 17.508/60))) = (84, 242, 130).
    EXPECT_EQ(player_colour(0), 0xF25454u);
    EXPECT_EQ(player_colour(1), 0x54F282u);

    ArenaWorld world(empty_field());
    std::set<std::uint32_t> colours;
    for (int i = 0; i < 32; ++i) {
        const auto e = entity(world, world.apply(JoinCommand{"x"}));
        EXPECT_TRUE(colours.insert(e.colour).second) << "player " << i;
        EXPECT_NE(e.colour, kObstacleColour);
        EXPECT_EQ(e.colour & 0xFF000000u, 0u);
    }
}

TEST(Players, CanJoinUntilEveryPlayerSlotIsTaken) {
    ArenaWorld world(empty_field());
    for (std::size_t i = 0; i < kMaxPlayers; ++i) {
        ASSERT_TRUE(world.can_join());
        ASSERT_NE(world.apply(JoinCommand{""}), kNoId);
    }
    EXPECT_EQ(world.player_count(), kMaxPlayers);
    EXPECT_FALSE(world.can_join());
    EXPECT_EQ(world.apply(JoinCommand{"late"}), kNoId);
    EXPECT_EQ(world.player_count(), kMaxPlayers);

    protocol::v1::Snapshot snapshot;
    world.capture_snapshot(snapshot);
    world.apply(LeaveCommand{snapshot.entities.front().id});
    EXPECT_TRUE(world.can_join());
}

TEST(Players, SnapshotReusesTheCallersCapacity) {
    ArenaWorld world{ArenaSettings{}};
    world.apply(JoinCommand{"Ann"});
    protocol::v1::Snapshot snapshot;
    snapshot.entities.reserve(64);
    const auto* storage = snapshot.entities.data();
    world.capture_snapshot(snapshot);
    world.step();
    world.capture_snapshot(snapshot);
    EXPECT_EQ(snapshot.entities.data(), storage);
    EXPECT_EQ(snapshot.entities.size(), 13u);
    EXPECT_EQ(snapshot.tick, 1u);
}

}  // namespace
}  // namespace hschool::sim::arena
