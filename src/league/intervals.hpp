#pragma once
// Interval arithmetic for the league table: percentiles of bootstrap draws, and the Student t
// interval of a mean (the pairs' margins).
#include <vector>

namespace hschool::league {

inline constexpr double kIntervalLevel = 0.95;

struct Interval {
    double low = 0, high = 0;
};

// The q-quantile by linear interpolation between order statistics (R's type 7); 0 for no values.
double quantile(std::vector<double> values, double q);
// The central kIntervalLevel of the values.
Interval percentile_interval(const std::vector<double>& values);
// The 0.975 quantile of Student's t with `df` degrees of freedom (df >= 1).
double student_t_975(int df);

// The standard normal's 0.975 quantile: a 95 % interval is ±kZ975 standard errors.
inline constexpr double kZ975 = 1.959963984540054;

struct MeanInterval {
    double mean = 0;
    Interval interval;
};
// The mean and its 95 % t interval, clamped to [lo, hi] (what a value can be); fewer than two
// values leave the whole range.
MeanInterval mean_interval(const std::vector<double>& values, double lo, double hi);

}  // namespace hschool::league
