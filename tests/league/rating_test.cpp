// The rating fit: Davidson's ties model, MAP under the weak prior. It recovers known strengths,
// ignores the order of the matches and mirror matches, and stays finite on a sweep.
#include <gtest/gtest.h>

#include <algorithm>

#include "league/rating.hpp"
#include "league/table.hpp"
#include "league_test_support.hpp"

using namespace league_test;

namespace {

std::vector<double> fitted_elo(const league::Fit& fit) {
    std::vector<double> out;
    for (double t : fit.theta) out.push_back(t * league::kEloPerNat);
    return out;
}

}  // namespace

TEST(LeagueRating, RecoversKnownStrengths) {
    const std::vector<double> truth{-250, -80, 30, 300};
    Draws draws(11);
    const auto games = simulate_games(truth, 0.3, 1500, draws);
    const auto fit = league::fit_davidson(league::tally(4, games), league::league_prior());
    ASSERT_TRUE(fit.converged);
    const auto elo = fitted_elo(fit);
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(elo[i], truth[i], 20) << "entrant " << i;
    EXPECT_NEAR(std::exp(fit.eta), 0.3, 0.05);
    double sum = 0;
    for (double t : fit.theta) sum += t;
    EXPECT_NEAR(sum, 0, 1e-9);  // anchored: the entrants' mean is 1500
}

TEST(LeagueRating, TheOrderOfMatchesDoesNotChangeTheFit) {
    Draws draws(5);
    auto games = simulate_games({-100, 0, 40, 60, 200}, 0.5, 12, draws);
    const auto reference = league::fit_davidson(league::tally(5, games), league::league_prior());
    for (int trial = 0; trial < 5; ++trial) {
        for (std::size_t k = games.size() - 1; k > 0; --k) std::swap(games[k], games[draws.below(k + 1)]);
        // The same match seen from the other side is the same match.
        for (auto& g : games)
            if (draws.below(2) == 0) {
                std::swap(g.i, g.j);
                if (g.forI != league::Outcome::Draw)
                    g.forI = g.forI == league::Outcome::Win ? league::Outcome::Loss : league::Outcome::Win;
            }
        const auto fit = league::fit_davidson(league::tally(5, games), league::league_prior());
        EXPECT_EQ(fit.theta, reference.theta);  // bit for bit: the fit reads counts only
        EXPECT_EQ(fit.eta, reference.eta);
    }
}

TEST(LeagueRating, MirrorMatchesMoveNothing) {
    Draws draws(6);
    auto games = simulate_games({-50, 0, 50}, 0.4, 10, draws);
    const auto before = league::fit_davidson(league::tally(3, games), league::league_prior());
    for (int k = 0; k < 20; ++k)
        games.push_back({k % 3, k % 3, k % 2 == 0 ? league::Outcome::Win : league::Outcome::Draw});
    const auto after = league::fit_davidson(league::tally(3, games), league::league_prior());
    EXPECT_EQ(after.theta, before.theta);
    EXPECT_EQ(after.eta, before.eta);
}

TEST(LeagueRating, ASweepStaysFiniteAndOrdered) {
    std::vector<league::Game> games(24, league::Game{0, 1, league::Outcome::Win});
    const auto fit = league::fit_davidson(league::tally(2, games), league::league_prior());
    ASSERT_TRUE(fit.converged);
    EXPECT_TRUE(std::isfinite(fit.theta[0]));
    EXPECT_GT(fit.theta[0], fit.theta[1]);
    EXPECT_LT((fit.theta[0] - fit.theta[1]) * league::kEloPerNat, 1500);
}

TEST(LeagueRating, NoMatchesIsThePrior) {
    const auto fit = league::fit_davidson(league::tally(3, {}), league::league_prior());
    EXPECT_TRUE(fit.converged);
    for (double t : fit.theta) EXPECT_EQ(t, 0);
    EXPECT_NEAR(fit.eta, league::kTiePriorMean, 1e-12);
}

TEST(LeagueRating, ProbabilitiesSumToOneAndFavourTheStronger) {
    for (double ti : {-3.0, 0.0, 2.5})
        for (double tj : {-1.0, 0.5})
            for (double eta : {-6.0, 0.0, 1.0}) {
                const auto p = league::davidson_probabilities(ti, tj, eta);
                EXPECT_NEAR(p[0] + p[1] + p[2], 1, 1e-12);
                EXPECT_EQ(p[0] > p[1], ti > tj);
            }
}

TEST(LeagueRating, TheFitIsTheMaximum) {
    Draws draws(8);
    const auto counts = league::tally(4, simulate_games({-120, -10, 30, 100}, 0.6, 9, draws));
    const auto prior = league::league_prior();
    const auto fit = league::fit_davidson(counts, prior);
    const double best = league::log_posterior(counts, prior, fit.theta, fit.eta);
    for (int k = 0; k < 5; ++k) {
        auto theta = fit.theta;
        theta[k % 4] += k % 2 == 0 ? 1e-3 : -1e-3;
        EXPECT_LT(league::log_posterior(counts, prior, theta, fit.eta), best);
        EXPECT_LT(league::log_posterior(counts, prior, fit.theta, fit.eta + (k % 2 == 0 ? 1e-3 : -1e-3)), best);
    }
}
