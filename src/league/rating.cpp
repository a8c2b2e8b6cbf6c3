#include "league/rating.hpp"

#include <cmath>

namespace hschool::league {
namespace {

// σ² and δ depend on each other (the prior weighs by σ²/τ²); this many rounds settle both far
// below the printed precision.
constexpr int kNoiseRounds = 50;
constexpr double kNoiseTolerance = 1e-12;

// How far apart (in margin units) a clear pair's ratings are kept at least, the sweeps Dykstra's
// projection may take and the movement below which it has settled.
constexpr double kClearGap = 1e-6;
constexpr int kClearSweeps = 10000;
constexpr double kClearTolerance = 1e-13;

using Matrix = std::vector<std::vector<double>>;

// The inverse of a symmetric positive definite matrix, by Gauss-Jordan elimination.
Matrix inverse(Matrix a) {
    const std::size_t n = a.size();
    Matrix inv(n, std::vector<double>(n, 0.0));
    for (std::size_t i = 0; i < n; ++i) inv[i][i] = 1;
    for (std::size_t c = 0; c < n; ++c) {
        std::size_t pivot = c;
        for (std::size_t r = c + 1; r < n; ++r)
            if (std::abs(a[r][c]) > std::abs(a[pivot][c])) pivot = r;
        std::swap(a[c], a[pivot]);
        std::swap(inv[c], inv[pivot]);
        const double p = a[c][c];
        for (std::size_t k = 0; k < n; ++k) {
            a[c][k] /= p;
            inv[c][k] /= p;
        }
        for (std::size_t r = 0; r < n; ++r) {
            if (r == c || a[r][c] == 0) continue;
            const double f = a[r][c];
            for (std::size_t k = 0; k < n; ++k) {
                a[r][k] -= f * a[c][k];
                inv[r][k] -= f * inv[c][k];
            }
        }
    }
    return inv;
}

}  // namespace

Fit fit_margins(int entrants, const std::vector<Game>& games, const Prior& prior) {
    const std::size_t n = static_cast<std::size_t>(entrants);
    // The design's normal equations: XᵀX (a graph Laplacian of who played whom) and Xᵀm.
    Matrix xtx(n, std::vector<double>(n, 0.0));
    std::vector<double> xtm(n, 0.0);
    std::vector<Game> used;
    for (const Game& g : games) {
        if (g.i == g.j) continue;
        used.push_back(g);
        xtx[g.i][g.i] += 1;
        xtx[g.j][g.j] += 1;
        xtx[g.i][g.j] -= 1;
        xtx[g.j][g.i] -= 1;
        xtm[g.i] += g.margin;
        xtm[g.j] -= g.margin;
    }
    Fit fit;
    fit.games = static_cast<int>(used.size());
    const double tau2 = prior.strengthSigma * prior.strengthSigma;
    double sigma2 = prior.noiseScale * prior.noiseScale;
    for (int round = 0; round < kNoiseRounds; ++round) {
        Matrix precision = xtx;
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t k = 0; k < n; ++k) precision[i][k] /= sigma2;
            precision[i][i] += 1 / tau2;
        }
        fit.covariance = inverse(precision);
        fit.delta.assign(n, 0.0);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t k = 0; k < n; ++k) fit.delta[i] += fit.covariance[i][k] * xtm[k] / sigma2;
        double residuals = 0;
        for (const Game& g : used) {
            const double r = g.margin - (fit.delta[g.i] - fit.delta[g.j]);
            residuals += r * r;
        }
        const double next = (residuals + prior.noiseWeight * prior.noiseScale * prior.noiseScale) /
                            (static_cast<double>(used.size()) + prior.noiseWeight);
        const bool settled = std::abs(next - sigma2) < kNoiseTolerance;
        sigma2 = next;
        if (settled) break;
    }
    fit.sigma = std::sqrt(sigma2);
    // Every row of X sums to 0 and the prior is symmetric, so the means already sum to 0; take out
    // the rounding.
    double mean = 0;
    for (double d : fit.delta) mean += d / static_cast<double>(n);
    for (double& d : fit.delta) d -= mean;
    return fit;
}

bool respect_clear_pairs(std::vector<double>& delta, const std::vector<ClearPair>& pairs) {
    const std::size_t n = delta.size();
    // A cycle (a over b over ... over a) has no ratings that respect it: Kahn's sort finds one.
    std::vector<int> indegree(n, 0);
    std::vector<std::vector<int>> after(n);
    for (const ClearPair& p : pairs) {
        after[p.ahead].push_back(p.behind);
        ++indegree[p.behind];
    }
    std::vector<int> ready;
    for (std::size_t i = 0; i < n; ++i)
        if (indegree[i] == 0) ready.push_back(static_cast<int>(i));
    std::size_t sorted = 0;
    while (!ready.empty()) {
        const int i = ready.back();
        ready.pop_back();
        ++sorted;
        for (int j : after[i])
            if (--indegree[j] == 0) ready.push_back(j);
    }
    if (sorted != n) return false;
    // Dykstra's alternating projections onto the half-spaces δ_ahead - δ_behind >= kClearGap: the
    // Euclidean projection of the fit onto their intersection. Each step moves two ratings by the
    // same amount in opposite directions, so their sum (0) is kept.
    std::vector<double> correction(pairs.size(), 0.0);
    for (int sweep = 0; sweep < kClearSweeps; ++sweep) {
        double moved = 0;
        for (std::size_t k = 0; k < pairs.size(); ++k) {
            const ClearPair& p = pairs[k];
            // Undo this half-space's last correction, then project again.
            delta[p.ahead] -= correction[k];
            delta[p.behind] += correction[k];
            const double shortfall = kClearGap - (delta[p.ahead] - delta[p.behind]);
            const double next = shortfall > 0 ? shortfall / 2 : 0;
            delta[p.ahead] += next;
            delta[p.behind] -= next;
            moved += std::abs(next - correction[k]);
            correction[k] = next;
        }
        if (moved < kClearTolerance) break;
    }
    return true;
}

double posterior_variance(const Fit& fit, const std::vector<double>& weights) {
    double v = 0;
    for (std::size_t i = 0; i < weights.size(); ++i)
        for (std::size_t k = 0; k < weights.size(); ++k) v += weights[i] * fit.covariance[i][k] * weights[k];
    return v;
}

}  // namespace hschool::league
