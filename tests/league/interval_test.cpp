// The interval method on synthetic leagues with a known answer: leagues drawn from known strengths,
// their 95 % intervals cover the truth about 95 % of the time, and a sweep keeps a real interval.
#include <gtest/gtest.h>

#include "league/intervals.hpp"
#include "league/table.hpp"
#include "league_test_support.hpp"

using namespace league_test;

namespace {

constexpr int kCoverageLeagues = 200;

}  // namespace

TEST(LeagueIntervals, CoverTheTrueRatingsAtAboutTheirLevel) {
    const std::vector<double> truth{-200, -60, 40, 220};  // mean 0, so the anchored truth is 1500 + these
    const auto entrants = builtins({{"w", "builtin:idle"}, {"x", "builtin:random"}, {"y", "builtin:scatter"},
                                    {"z", "builtin:burrow"}});
    Draws draws(2024);
    int covered = 0, intervals = 0;
    std::vector<double> meanRating(4, 0.0);
    for (int league_ = 0; league_ < kCoverageLeagues; ++league_) {
        const auto games = simulate_games(truth, 0.25, 24, draws);
        league::LeagueInfo info{"synthetic", "2", league_, 24, static_cast<int>(games.size()), league::LeagueState::Finished};
        const auto table = league::build_table(entrants, as_results(games, entrants), info);
        ASSERT_TRUE(table) << table.error();
        for (int i = 0; i < 4; ++i) {
            const auto& e = table->entrants[i];
            const double target = league::kRatingAnchor + truth[i];
            covered += e.low <= target && target <= e.high ? 1 : 0;
            ++intervals;
            meanRating[i] += e.rating / kCoverageLeagues;
        }
    }
    const double coverage = static_cast<double>(covered) / intervals;
    EXPECT_GE(coverage, 0.85);
    EXPECT_LE(coverage, 0.995);
    std::printf("coverage of the 95%% intervals: %.3f over %d\n", coverage, intervals);
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(meanRating[i], league::kRatingAnchor + truth[i], 25) << "entrant " << i;
}

TEST(LeagueIntervals, ASweepKeepsAnIntervalAndSeparatesTheEntrants) {
    // 24–0 by the same margin every time: no spread in the margins, and still a real interval.
    const auto entrants = builtins({{"strong", "builtin:burrow"}, {"weak", "builtin:idle"}});
    std::vector<league::MatchResult> results;
    for (int k = 0; k < 24; ++k)
        results.push_back(k % 2 == 0 ? synthetic(k + 1, "strong", "weak", 0.6) : synthetic(k + 1, "weak", "strong", -0.6));
    const auto table = league::build_table(entrants, results, {"synthetic", "2", 3, 24, 24, league::LeagueState::Finished});
    ASSERT_TRUE(table) << table.error();
    const auto& strong = table->entrants[0];
    const auto& weak = table->entrants[1];
    EXPECT_LT(strong.low, strong.rating);
    EXPECT_GT(weak.high, weak.rating);
    EXPECT_GT(strong.low, weak.high);
    EXPECT_TRUE(std::isfinite(strong.high));
}

TEST(LeagueIntervals, PercentilesAndTheMeanInterval) {
    std::vector<double> v;
    for (int k = 0; k <= 1000; ++k) v.push_back(k);
    EXPECT_DOUBLE_EQ(league::quantile(v, 0.5), 500);
    EXPECT_NEAR(league::quantile(v, 0.025), 25, 1e-9);
    EXPECT_DOUBLE_EQ(league::quantile({1, 2}, 0.5), 1.5);
    const auto p = league::percentile_interval(v);
    EXPECT_NEAR(p.low, 25, 1e-9);
    EXPECT_NEAR(p.high, 975, 1e-9);
    EXPECT_NEAR(league::student_t_975(1), 12.706, 1e-3);
    EXPECT_NEAR(league::student_t_975(30), 2.042, 1e-3);
    EXPECT_NEAR(league::student_t_975(31), 2.040, 2e-3);
    EXPECT_NEAR(league::student_t_975(120), 1.980, 2e-3);
    EXPECT_NEAR(league::student_t_975(100000), 1.960, 1e-3);
    const auto m = league::mean_interval({1, 2, 3, 4}, -10, 10);
    EXPECT_DOUBLE_EQ(m.mean, 2.5);
    // sd 1.291, se 0.6455, t(3) 3.182.
    EXPECT_NEAR(m.interval.low, 2.5 - 3.182 * 0.645497, 1e-4);
    EXPECT_NEAR(m.interval.high, 2.5 + 3.182 * 0.645497, 1e-4);
    const auto one = league::mean_interval({0.5}, -2, 2);
    EXPECT_DOUBLE_EQ(one.interval.low, -2);
    EXPECT_DOUBLE_EQ(one.interval.high, 2);
    const auto clamped = league::mean_interval({1.9, 2, 2, 1.2}, -2, 2);
    EXPECT_DOUBLE_EQ(clamped.interval.high, 2);
}
