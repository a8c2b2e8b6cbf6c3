#include "league/intervals.hpp"

#include <algorithm>
#include <cmath>

namespace hschool::league {
namespace {

// t_{0.975} for 1..30 degrees of freedom; past that the Cornish–Fisher expansion is within 1e-3.
constexpr double kT975[30] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                              2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                              2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};

}  // namespace

double quantile(std::vector<double> values, double q) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const double pos = std::clamp(q, 0.0, 1.0) * static_cast<double>(values.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, values.size() - 1);
    return values[lo] + (pos - static_cast<double>(lo)) * (values[hi] - values[lo]);
}

Interval percentile_interval(const std::vector<double>& values) {
    const double tail = (1 - kIntervalLevel) / 2;
    return {quantile(values, tail), quantile(values, 1 - tail)};
}

double student_t_975(int df) {
    if (df < 1) return INFINITY;
    if (df <= 30) return kT975[df - 1];
    const double z = kZ975, v = df;
    return z + (z * z * z + z) / (4 * v) + (5 * std::pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * v * v);
}

MeanInterval mean_interval(const std::vector<double>& values, double lo, double hi) {
    MeanInterval out;
    out.interval = {lo, hi};
    if (values.empty()) return out;
    double sum = 0;
    for (double v : values) sum += v;
    const double n = static_cast<double>(values.size());
    out.mean = sum / n;
    if (values.size() < 2) return out;
    double squares = 0;
    for (double v : values) squares += (v - out.mean) * (v - out.mean);
    const double half = student_t_975(static_cast<int>(values.size()) - 1) * std::sqrt(squares / (n - 1) / n);
    out.interval = {std::max(lo, out.mean - half), std::min(hi, out.mean + half)};
    return out;
}

}  // namespace hschool::league
