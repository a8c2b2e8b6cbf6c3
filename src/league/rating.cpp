#include "league/rating.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace hschool::league {
namespace {

constexpr int kMaxNewtonSteps = 200;
constexpr int kMaxHalvings = 60;
constexpr double kStepTolerance = 1e-10;
// Newton's decrement g·Δ (twice the gain the step promises): below this the optimum is reached to
// far beyond what the ratings print, however many matches the sums hold.
constexpr double kDecrementTolerance = 1e-14;
constexpr double kArmijo = 1e-4;

double log_sum_exp3(double x, double y, double z) {
    const double m = std::max({x, y, z});
    return m + std::log(std::exp(x - m) + std::exp(y - m) + std::exp(z - m));
}

// Solves A·x = b for a symmetric positive definite A (row-major, n×n) by Cholesky; false if A is not.
bool solve_spd(std::vector<double> a, std::vector<double>& b, int n) {
    for (int c = 0; c < n; ++c) {
        double d = a[c * n + c];
        for (int k = 0; k < c; ++k) d -= a[c * n + k] * a[c * n + k];
        if (!(d > 0)) return false;
        a[c * n + c] = std::sqrt(d);
        for (int r = c + 1; r < n; ++r) {
            double v = a[r * n + c];
            for (int k = 0; k < c; ++k) v -= a[r * n + k] * a[c * n + k];
            a[r * n + c] = v / a[c * n + c];
        }
    }
    for (int r = 0; r < n; ++r) {
        for (int k = 0; k < r; ++k) b[r] -= a[r * n + k] * b[k];
        b[r] /= a[r * n + r];
    }
    for (int r = n - 1; r >= 0; --r) {
        for (int k = r + 1; k < n; ++k) b[r] -= a[k * n + r] * b[k];
        b[r] /= a[r * n + r];
    }
    return true;
}

// Gradient and the negated Hessian (positive definite) of the log posterior at (theta, eta).
void derivatives(const Counts& counts, const Prior& prior, const std::vector<double>& theta, double eta,
                 std::vector<double>& grad, std::vector<double>& negHess) {
    const int n = counts.entrants, d = n + 1;
    grad.assign(d, 0.0);
    negHess.assign(static_cast<std::size_t>(d) * d, 0.0);
    const auto at = [&](int r, int c) -> double& { return negHess[static_cast<std::size_t>(r) * d + c]; };
    for (const PairCounts& p : counts.pairs) {
        const auto [a, b, c] = davidson_probabilities(theta[p.i], theta[p.j], eta);
        const double games = p.games();
        const int idx[3] = {p.i, p.j, n};
        const double mean[3] = {a + c / 2, b + c / 2, c};
        const double second[3][3] = {{a + c / 4, c / 4, c / 2}, {c / 4, b + c / 4, c / 2}, {c / 2, c / 2, c}};
        grad[p.i] += p.winsI + p.draws / 2.0 - games * mean[0];
        grad[p.j] += p.winsJ + p.draws / 2.0 - games * mean[1];
        grad[n] += p.draws - games * mean[2];
        for (int r = 0; r < 3; ++r)
            for (int k = 0; k < 3; ++k) at(idx[r], idx[k]) += games * (second[r][k] - mean[r] * mean[k]);
    }
    const double strengthPrecision = 1.0 / (prior.strengthSigma * prior.strengthSigma);
    for (int i = 0; i < n; ++i) {
        grad[i] -= theta[i] * strengthPrecision;
        at(i, i) += strengthPrecision;
    }
    const double tiePrecision = 1.0 / (prior.tieSigma * prior.tieSigma);
    grad[n] -= (eta - prior.tieMean) * tiePrecision;
    at(n, n) += tiePrecision;
}

}  // namespace

Counts tally(int entrants, const std::vector<Game>& games) {
    std::map<std::pair<int, int>, PairCounts> byPair;
    for (const Game& g : games) {
        if (g.i == g.j || g.i < 0 || g.j < 0 || g.i >= entrants || g.j >= entrants) continue;
        const bool swap = g.i > g.j;
        PairCounts& p = byPair[{std::min(g.i, g.j), std::max(g.i, g.j)}];
        p.i = std::min(g.i, g.j);
        p.j = std::max(g.i, g.j);
        if (g.forI == Outcome::Draw) ++p.draws;
        else if ((g.forI == Outcome::Win) != swap) ++p.winsI;
        else ++p.winsJ;
    }
    Counts out;
    out.entrants = entrants;
    for (const auto& [key, p] : byPair) out.pairs.push_back(p);
    return out;
}

std::array<double, 3> davidson_probabilities(double thetaI, double thetaJ, double eta) {
    const double tie = eta + (thetaI + thetaJ) / 2;
    const double lse = log_sum_exp3(thetaI, thetaJ, tie);
    return {std::exp(thetaI - lse), std::exp(thetaJ - lse), std::exp(tie - lse)};
}

double log_posterior(const Counts& counts, const Prior& prior, const std::vector<double>& theta, double eta) {
    double total = 0;
    for (const PairCounts& p : counts.pairs) {
        const double tie = eta + (theta[p.i] + theta[p.j]) / 2;
        total += p.winsI * theta[p.i] + p.winsJ * theta[p.j] + p.draws * tie -
                 p.games() * log_sum_exp3(theta[p.i], theta[p.j], tie);
    }
    for (double t : theta) total -= t * t / (2 * prior.strengthSigma * prior.strengthSigma);
    total -= (eta - prior.tieMean) * (eta - prior.tieMean) / (2 * prior.tieSigma * prior.tieSigma);
    return total;
}

Fit fit_davidson(const Counts& counts, const Prior& prior, const Fit* start) {
    const int n = counts.entrants, d = n + 1;
    Fit fit;
    fit.theta.assign(n, 0.0);
    fit.eta = prior.tieMean;
    if (start != nullptr && static_cast<int>(start->theta.size()) == n) {
        fit.theta = start->theta;
        fit.eta = start->eta;
    }
    std::vector<double> grad, negHess;
    double value = log_posterior(counts, prior, fit.theta, fit.eta);
    for (fit.iterations = 0; fit.iterations < kMaxNewtonSteps; ++fit.iterations) {
        derivatives(counts, prior, fit.theta, fit.eta, grad, negHess);
        std::vector<double> step = grad;
        if (!solve_spd(negHess, step, d)) break;  // cannot happen: the prior makes it definite
        double slope = 0, largest = 0;
        for (int k = 0; k < d; ++k) {
            slope += grad[k] * step[k];
            largest = std::max(largest, std::abs(step[k]));
        }
        if (largest < kStepTolerance || slope < kDecrementTolerance) {
            fit.converged = true;
            break;
        }
        double scale = 1;
        std::vector<double> theta(n);
        double eta = 0, next = value;
        for (int h = 0; h < kMaxHalvings; ++h, scale /= 2) {
            for (int i = 0; i < n; ++i) theta[i] = fit.theta[i] + scale * step[i];
            eta = fit.eta + scale * step[n];
            next = log_posterior(counts, prior, theta, eta);
            if (next >= value + kArmijo * scale * slope) break;
        }
        if (!(next >= value)) {  // no ascent left in floating point: this is the optimum
            fit.converged = true;
            break;
        }
        fit.theta = theta;
        fit.eta = eta;
        value = next;
    }
    double mean = 0;
    for (double t : fit.theta) mean += t;
    if (n > 0) mean /= n;
    for (double& t : fit.theta) t -= mean;
    return fit;
}

}  // namespace hschool::league
