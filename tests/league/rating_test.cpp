// The margin rating (rating.hpp): known strengths recovered, order and mirrors change nothing, no
// matches is the prior, and a rating never contradicts a pairing whose margins are clear — the
// fault of the win-count fit it replaced (burrow rated above idle while idle out-scored it).
#include <gtest/gtest.h>

#include "league/intervals.hpp"
#include "league/rating.hpp"
#include "league/table.hpp"
#include "league_test_support.hpp"

using namespace league_test;

TEST(LeagueRating, RecoversKnownStrengths) {
    Draws draws(11);
    const std::vector<double> truth{-150, -30, 60, 120};
    const auto games = simulate_games(truth, 0.4, 60, draws);
    const auto fit = league::fit_margins(4, games, league::league_prior());
    // Each rating's standard error here is about 11 points.
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(fit.delta[i] * league::kRatingPerMargin, truth[i], 40) << i;
    EXPECT_NEAR(fit.sigma, 0.4, 0.03);
    double sum = 0;
    for (double d : fit.delta) sum += d;
    EXPECT_NEAR(sum, 0, 1e-12);
}

TEST(LeagueRating, TheOrderOfMatchesAndMirrorsChangeNothing) {
    Draws draws(5);
    auto games = simulate_games({-50, 0, 80}, 0.5, 10, draws);
    const auto a = league::fit_margins(3, games, league::league_prior());
    std::reverse(games.begin(), games.end());
    games.push_back({1, 1, 0.7});
    const auto b = league::fit_margins(3, games, league::league_prior());
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(a.delta[i], b.delta[i], 1e-12);
    EXPECT_EQ(b.games, a.games);
}

TEST(LeagueRating, NoMatchesIsThePrior) {
    const auto prior = league::league_prior();
    const auto fit = league::fit_margins(3, {}, prior);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(fit.delta[i], 0);
        EXPECT_NEAR(fit.covariance[i][i], prior.strengthSigma * prior.strengthSigma, 1e-12);
    }
}

TEST(LeagueRating, TwoEntrantsAreRatedInTheOrderOfTheirMeanMargin) {
    // The league in miniature: idle loses most matches by a little and wins the rest by a
    // lot. By wins burrow leads; by score idle does, and so must the rating.
    const auto entrants = builtins({{"burrow", "builtin:burrow"}, {"idle", "builtin:idle"}});
    std::vector<league::MatchResult> results;
    for (int k = 0; k < 24; ++k) {
        const double burrowScore = k < 12 ? 0.1 : k == 12 ? 0 : -0.8;  // 12 wins, 1 draw, 11 losses
        results.push_back(k % 2 == 0 ? synthetic(k + 1, "burrow", "idle", burrowScore)
                                     : synthetic(k + 1, "idle", "burrow", -burrowScore));
    }
    const auto table = league::build_table(entrants, results, {"synthetic", "2", 7, 24, 24, league::LeagueState::Finished});
    ASSERT_TRUE(table) << table.error();
    const auto& burrow = table->entrants[0];
    const auto& idle = table->entrants[1];
    EXPECT_EQ(burrow.wins, 12);
    EXPECT_EQ(burrow.draws, 1);
    EXPECT_EQ(burrow.losses, 11);
    const auto& pair = table->pairs[0];
    ASSERT_TRUE(pair.meanMargin.has_value());
    EXPECT_LT(pair.margin.high, 0);  // burrow's margin over idle: clearly negative
    EXPECT_LT(burrow.rating, idle.rating);
}

TEST(LeagueRating, APairWhoseMarginIntervalExcludesZeroIsNeverRatedTheOtherWay) {
    // Many synthetic leagues of four to six entrants at transitive true strengths, some close: in
    // every pair whose 95 % margin interval lies on one side of 0, the ratings agree.
    Draws draws(31);
    const auto pool = builtins({{"a", "builtin:burrow"}, {"b", "builtin:scatter"}, {"c", "builtin:idle"},
                                {"d", "builtin:random"}, {"e", "builtin:burrow"}, {"f", "builtin:idle"}});
    int clear = 0, cycles = 0;
    for (int trial = 0; trial < 200; ++trial) {
        const int n = 4 + static_cast<int>(draws.below(3));
        std::vector<double> truth;
        for (int i = 0; i < n; ++i) truth.push_back(-200 + 400 * draws.uniform());
        const std::vector<league::Entrant> entrants(pool.begin(), pool.begin() + n);
        const auto games = simulate_games(truth, 0.2 + draws.uniform(), 2 + static_cast<int>(draws.below(20)), draws);
        const auto table = league::build_table(entrants, as_results(games, entrants),
                                               {"synthetic", "2", trial, 1, 1, league::LeagueState::Finished});
        ASSERT_TRUE(table) << table.error();
        if (!table->clearPairsRespected) {
            ++cycles;  // clear pairings in a cycle: no ratings can order them all
            continue;
        }
        std::map<std::string, double> rating;
        for (const auto& e : table->entrants) rating[e.name] = e.rating;
        for (const auto& p : table->pairs) {
            if (!p.meanMargin || (p.margin.low <= 0 && p.margin.high >= 0)) continue;
            ++clear;
            if (p.margin.low > 0) EXPECT_GT(rating[p.a], rating[p.b]) << "trial " << trial << " " << p.a << "-" << p.b;
            else EXPECT_LT(rating[p.a], rating[p.b]) << "trial " << trial << " " << p.a << "-" << p.b;
        }
    }
    EXPECT_GT(clear, 500);  // the property was tested, not skipped
    EXPECT_LT(cycles, 10);
}

TEST(LeagueRating, ClearPairsInACycleCannotBeRespectedAndLeaveTheFit) {
    std::vector<double> delta{0.1, 0.0, -0.1};
    EXPECT_FALSE(league::respect_clear_pairs(delta, {{0, 1}, {1, 2}, {2, 0}}));
    EXPECT_EQ(delta, (std::vector<double>{0.1, 0.0, -0.1}));
    // Acyclic: the nearest ratings that order them, their sum kept.
    EXPECT_TRUE(league::respect_clear_pairs(delta, {{2, 0}}));
    EXPECT_GT(delta[2], delta[0]);
    EXPECT_NEAR(delta[0] + delta[1] + delta[2], 0, 1e-12);
    EXPECT_NEAR(delta[0], delta[2], 1e-5);  // moved only as far as needed: to meet in the middle
    EXPECT_DOUBLE_EQ(delta[1], 0.0);
}
