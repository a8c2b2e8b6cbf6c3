#include "league/bootstrap.hpp"

#include "sim/hns/rng.hpp"

namespace hschool::league {
namespace {

constexpr int kMantissaBits = 53;

double uniform(std::uint64_t& state) {
    return static_cast<double>(sim::hns::splitmix64(state) >> (64 - kMantissaBits)) * 0x1.0p-53;
}

}  // namespace

std::vector<Fit> bootstrap_fits(const Counts& counts, const Fit& fit, const Prior& prior, int resamples,
                                std::uint64_t seed) {
    std::vector<Fit> out;
    out.reserve(resamples > 0 ? static_cast<std::size_t>(resamples) : 0);
    std::uint64_t state = seed;
    for (int r = 0; r < resamples; ++r) {
        Counts drawn = counts;
        for (PairCounts& p : drawn.pairs) {
            const auto [a, b, c] = davidson_probabilities(fit.theta[p.i], fit.theta[p.j], fit.eta);
            (void)c;
            const int games = p.games();
            p.winsI = p.winsJ = p.draws = 0;
            for (int g = 0; g < games; ++g) {
                const double u = uniform(state);
                if (u < a) ++p.winsI;
                else if (u < a + b) ++p.winsJ;
                else ++p.draws;
            }
        }
        out.push_back(fit_davidson(drawn, prior, &fit));
    }
    return out;
}

}  // namespace hschool::league
