#pragma once
// The rating fit (issue 33): Davidson's ties model of Bradley–Terry over every match at once.
// Entrant i of strength π_i = e^θ_i against j, with tie factor ν = e^η:
//   P(i wins) = π_i / D,  P(j wins) = π_j / D,  P(draw) = ν·√(π_i π_j) / D,  D = π_i + π_j + ν·√(π_i π_j).
// A batch fit over a frozen set of versions: the counts per pairing are all it reads, so the order
// of the matches cannot change it. The maximum a posteriori point under a weak Gaussian prior on
// each θ (and on η) stays finite when an entrant sweeps, and centres the strengths on 0.
#include <array>
#include <vector>

#include "league/attribution.hpp"

namespace hschool::league {

// One match as the fit sees it: entrants i and j, and i's outcome.
struct Game {
    int i = 0, j = 0;
    Outcome forI = Outcome::Draw;
};

// Outcomes of one unordered pairing, i < j.
struct PairCounts {
    int i = 0, j = 0;
    int winsI = 0, winsJ = 0, draws = 0;
    int games() const { return winsI + winsJ + draws; }
};

struct Counts {
    int entrants = 0;
    std::vector<PairCounts> pairs;  // pairs that played, ordered by (i, j)
};

struct Prior {
    double strengthSigma = 0;  // sd of each θ, natural-log units
    double tieMean = 0;        // mean of η
    double tieSigma = 0;       // sd of η
};

struct Fit {
    std::vector<double> theta;  // centred: they sum to 0
    double eta = 0;
    int iterations = 0;
    bool converged = false;
};

// Mirror games (i == j) are dropped: an entrant against itself tells nothing.
Counts tally(int entrants, const std::vector<Game>& games);
// [P(i wins), P(j wins), P(draw)].
std::array<double, 3> davidson_probabilities(double thetaI, double thetaJ, double eta);
double log_posterior(const Counts& counts, const Prior& prior, const std::vector<double>& theta, double eta);
// Newton's method with a backtracking line search on the concave log posterior; `start` warms it.
Fit fit_davidson(const Counts& counts, const Prior& prior, const Fit* start = nullptr);

}  // namespace hschool::league
