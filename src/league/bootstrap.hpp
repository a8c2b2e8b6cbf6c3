#pragma once
// Intervals for the fit (issue 33): a parametric bootstrap. Each resample replays every pairing's
// number of matches from the fitted Davidson probabilities and refits. Resampling the observed
// matches instead collapses where a pairing's outcomes are all alike (a 24–0 sweep resamples to
// 24–0 every time: an interval of width 0); drawn from the fit, a sweep still loses now and then.
#include <cstdint>
#include <vector>

#include "league/rating.hpp"

namespace hschool::league {

// A pure function of (counts, fit, prior, resamples, seed): the same table on every machine.
std::vector<Fit> bootstrap_fits(const Counts& counts, const Fit& fit, const Prior& prior, int resamples,
                                std::uint64_t seed);

}  // namespace hschool::league
