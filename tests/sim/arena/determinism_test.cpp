#include <gtest/gtest.h>

#include <vector>

#include "arena_test_support.hpp"
#include "sim/arena/prng.hpp"

namespace hschool::sim::arena {
namespace {

// A scripted session: joins, leaves and inputs chosen by a seeded generator.
std::vector<std::uint64_t> run_session(std::uint64_t script_seed, std::uint8_t extra_mask_for_first_input = 0) {
    ArenaWorld world{ArenaSettings{}};
    SplitMix64 script(script_seed);
    std::vector<std::uint32_t> players;
    std::vector<std::uint64_t> hashes;
    std::uint32_t sequence = 0;
    bool first_input = true;
    for (int tick = 0; tick < 300; ++tick) {
        const auto roll = script.next() % 10;
        if (roll == 0 || players.empty()) players.push_back(world.apply(JoinCommand{"p"}));
        if (roll == 1 && players.size() > 1) {
            world.apply(LeaveCommand{players.front()});
            players.erase(players.begin());
        }
        for (auto id : players) {
            auto mask = static_cast<std::uint8_t>(script.next() & 0x0F);
            if (first_input) mask ^= extra_mask_for_first_input;
            first_input = false;
            world.apply(InputCommand{id, ++sequence, mask});
        }
        world.step();
        hashes.push_back(world.state_hash());
    }
    return hashes;
}

TEST(Determinism, SameInputsGiveTheSameHashSequence) {
    EXPECT_EQ(run_session(11), run_session(11));
}

TEST(Determinism, DifferentInputsGiveADifferentHash) {
    const auto base = run_session(11);
    const auto changed = run_session(11, protocol::v1::buttons::kLeft);
    EXPECT_NE(base.front(), changed.front());
    EXPECT_NE(run_session(11).back(), run_session(12).back());
}

TEST(Determinism, HashCoversTickIdsAndInputs) {
    ArenaWorld a(testing::empty_field()), b(testing::empty_field());
    EXPECT_EQ(a.state_hash(), b.state_hash());
    a.step();
    EXPECT_NE(a.state_hash(), b.state_hash());  // tick
    b.step();
    const auto ida = a.apply(JoinCommand{"x"});
    const auto idb = b.apply(JoinCommand{"x"});
    EXPECT_EQ(a.state_hash(), b.state_hash());
    a.apply(InputCommand{ida, 7, 0});
    EXPECT_NE(a.state_hash(), b.state_hash());  // last accepted sequence, even with no movement
    b.apply(InputCommand{idb, 7, 0});
    EXPECT_EQ(a.state_hash(), b.state_hash());
    a.apply(LeaveCommand{ida});
    b.apply(LeaveCommand{idb});
    ArenaWorld fresh(testing::empty_field());
    fresh.step();
    EXPECT_NE(a.state_hash(), fresh.state_hash());  // the id counter remembers the join
}

}  // namespace
}  // namespace hschool::sim::arena
