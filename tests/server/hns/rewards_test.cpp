// The /reward text (spec §2.6): six exact lines per player, identities with spaces as "a:b".
#include <gtest/gtest.h>

#include "server/hns/contract/rewards.hpp"

namespace hschool::server::hns {
namespace {

TEST(HnsReward, IdentityWithWhitespaceBecomesFirstTwoWordsJoined) {
    EXPECT_EQ(reward_id("alice"), "alice");
    EXPECT_EQ(reward_id("team red bot"), "team:red");
    EXPECT_EQ(reward_id("  team\tred  "), "team:red");
    EXPECT_EQ(reward_id(" solo "), "solo");
    EXPECT_EQ(reward_id(""), "");
}

TEST(HnsReward, LinesAreExactAndInOrder) {
    const std::vector<RewardRow> rows{{"alice", 3, 10, 2, 1, 4, 0}, {"team red", -3, 0, 0, 0, 0, 1}};
    EXPECT_EQ(reward_text(rows),
              "reward alice 3\nseen alice 10\nsealed alice 2\nlocks alice 1\ngrabs alice 4\nvaults alice 0\n"
              "reward team:red -3\nseen team:red 0\nsealed team:red 0\nlocks team:red 0\ngrabs team:red 0\n"
              "vaults team:red 1\n");
}

TEST(HnsReward, NoPlayersIsAnEmptyMessage) { EXPECT_EQ(reward_text({}), ""); }

}  // namespace
}  // namespace hschool::server::hns
