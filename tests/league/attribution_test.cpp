// Whose score is whose: credit by the seats an entrant held, never by join order (the league
// runner's ladder filed results under join order; issue 33 point 5).
#include <gtest/gtest.h>

#include "league/attribution.hpp"
#include "league_test_support.hpp"

using namespace league_test;

TEST(LeagueAttribution, SwappedSeatsCreditEveryScoreToItsEntrant) {
    // The same two trios' play, written once with "red" in slots 0,2,4 and once with the seats swapped.
    const std::array<std::string, 6> seats{"red", "blue", "red", "blue", "red", "blue"};
    const std::array<std::string, 6> swapped{"blue", "red", "blue", "red", "blue", "red"};
    const std::array<double, 6> scores{0.25, -0.25, 0.25, -0.25, 0.25, -0.25};
    const auto a = league::attribute(seats, scores);
    const auto b = league::attribute(swapped, scores);
    ASSERT_TRUE(a) << a.error();
    ASSERT_TRUE(b) << b.error();
    EXPECT_EQ(a->trios[0].entrant, "red");
    EXPECT_DOUBLE_EQ(a->trios[0].score, 0.25);
    EXPECT_EQ(a->trios[0].outcome, league::Outcome::Win);
    EXPECT_EQ(a->trios[1].entrant, "blue");
    EXPECT_EQ(a->trios[1].outcome, league::Outcome::Loss);
    EXPECT_EQ(b->trios[0].entrant, "blue");
    EXPECT_DOUBLE_EQ(b->trios[0].score, 0.25);
    EXPECT_EQ(b->trios[1].entrant, "red");
    EXPECT_DOUBLE_EQ(b->trios[1].score, -0.25);
}

TEST(LeagueAttribution, SwappedSeatsThroughTheTable) {
    // Three entrants; every match's slot-0 trio wins by a different score, and the entrants take
    // turns in each trio, so a table that credited slots instead of seats would be visibly wrong.
    const auto entrants = builtins({{"x", "builtin:burrow"}, {"y", "builtin:idle"}, {"z", "builtin:random"}});
    std::vector<league::MatchResult> results{synthetic(1, "x", "y", 0.5), synthetic(2, "y", "x", 0.25),
                                             synthetic(3, "z", "x", 0.125), synthetic(4, "y", "z", -0.75)};
    league::LeagueInfo info{"synthetic", "2", 1, 2, 4, league::LeagueState::Finished};
    const auto table = league::build_table(entrants, results, info);
    ASSERT_TRUE(table) << table.error();
    const auto& x = table->entrants[0];
    const auto& y = table->entrants[1];
    const auto& z = table->entrants[2];
    // x: +0.5 (won), -0.25 (lost), -0.125 (lost).
    EXPECT_EQ(x.matches, 3);
    EXPECT_EQ(x.wins, 1);
    EXPECT_EQ(x.losses, 2);
    EXPECT_NEAR(*x.meanScore, (0.5 - 0.25 - 0.125) / 3, 1e-12);
    // y: -0.5 (lost), +0.25 (won), -0.75 (lost).
    EXPECT_EQ(y.wins, 1);
    EXPECT_EQ(y.losses, 2);
    EXPECT_NEAR(*y.meanScore, (-0.5 + 0.25 - 0.75) / 3, 1e-12);
    // z: +0.125 (won), +0.75 (won).
    EXPECT_EQ(z.wins, 2);
    EXPECT_EQ(z.losses, 0);
    EXPECT_NEAR(*z.meanScore, (0.125 + 0.75) / 2, 1e-12);
    // Pair x–y: x won match 1 by a margin of 1.0 and lost match 2 by 0.5 (margins from x's side).
    const auto& xy = table->pairs[0];
    EXPECT_EQ(xy.a, "x");
    EXPECT_EQ(xy.b, "y");
    EXPECT_EQ(xy.aWins, 1);
    EXPECT_EQ(xy.bWins, 1);
    EXPECT_NEAR(*xy.meanMargin, (1.0 - 0.5) / 2, 1e-12);
}

TEST(LeagueAttribution, RefusesResultsThatBreakTheTrioRules) {
    const std::array<double, 6> fine{0.5, -0.5, 0.5, -0.5, 0.5, -0.5};
    EXPECT_FALSE(league::attribute({"a", "b", "c", "b", "a", "b"}, fine));  // a trio split between two entrants
    EXPECT_FALSE(league::attribute({"a", "b", "a", "b", "a", "b"}, {0.5, -0.5, 0.4, -0.5, 0.5, -0.5}));
    EXPECT_FALSE(league::attribute({"a", "b", "a", "b", "a", "b"}, {0.5, -0.4, 0.5, -0.4, 0.5, -0.4}));
    EXPECT_FALSE(league::attribute({"a", "b", "a", "b", "a", "b"}, {NAN, -0.5, 0.5, -0.5, 0.5, -0.5}));
}

TEST(LeagueAttribution, DrawsAndMirrors) {
    const auto draw = league::attribute({"a", "b", "a", "b", "a", "b"}, {0, 0, 0, 0, 0, 0});
    ASSERT_TRUE(draw);
    EXPECT_EQ(draw->trios[0].outcome, league::Outcome::Draw);
    EXPECT_EQ(draw->trios[1].outcome, league::Outcome::Draw);
    EXPECT_FALSE(draw->mirror());
    const auto self = league::attribute({"a", "a", "a", "a", "a", "a"}, {0.5, -0.5, 0.5, -0.5, 0.5, -0.5});
    ASSERT_TRUE(self);
    EXPECT_TRUE(self->mirror());
    EXPECT_EQ(league::outcome_of(0.001), league::Outcome::Win);
    EXPECT_EQ(league::outcome_of(-0.001), league::Outcome::Loss);
}
