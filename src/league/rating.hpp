#pragma once
// The rating fit: a Gaussian model of the score margin, fitted over every match at once. A match of
// entrant i (one trio) against j (the other) has margin m = i's trio score - j's, in [-2, 2]:
//   m ~ Normal(δ_i - δ_j, σ²),   δ_i ~ Normal(0, τ²)   (τ: the prior, kPriorSigmaMargin)
// and σ² is estimated from the residuals (with a weak prior so that identical margins still fit).
// The ratings are the posterior means of δ, which sum to 0, and their posterior is Gaussian, so the
// intervals are exact. Why margins and not wins: a league ranks by scores, and a rating counting
// only each match's sign rated burrow above idle in a league whose margins said the opposite
// (idle wins big when it wins). Between two entrants the fitted difference has the sign of the
// mean margin; over many it is the least-squares fit of every pairing's margins. Wins, draws and
// losses are still counted beside it (attribution.hpp).
#include <vector>

namespace hschool::league {

// One match as the fit sees it: entrants i and j, and i's margin over j.
struct Game {
    int i = 0, j = 0;
    double margin = 0;
};

struct Prior {
    double strengthSigma = 0;  // τ: sd of each δ, in margin units
    double noiseScale = 0;     // s0: the residual sd the noise prior is centred on
    double noiseWeight = 0;    // ν0: how many matches that prior weighs
};

struct Fit {
    std::vector<double> delta;                    // posterior means, centred: they sum to 0
    std::vector<std::vector<double>> covariance;  // posterior covariance of delta
    double sigma = 0;                             // the fitted residual sd
    int games = 0;                                // matches the fit read (mirrors dropped)
};

// Mirror games (i == j) are dropped: an entrant against itself tells nothing.
Fit fit_margins(int entrants, const std::vector<Game>& games, const Prior& prior);
// A pairing whose margins clearly favour one entrant: `ahead` out-scores `behind`.
struct ClearPair {
    int ahead = 0, behind = 0;
};
// Moves `delta` to the nearest ratings (least squares, keeping their sum) that put every clear
// pair's `ahead` above its `behind`: pooling many pairings could otherwise rate a pair against its
// own clear margins. False, with `delta` unchanged, when the clear pairs form a cycle — then no
// ratings at all can respect them.
bool respect_clear_pairs(std::vector<double>& delta, const std::vector<ClearPair>& pairs);
// The posterior variance of a·δ for a weight vector a (a rating minus the mean, or a difference).
double posterior_variance(const Fit& fit, const std::vector<double>& weights);

}  // namespace hschool::league
