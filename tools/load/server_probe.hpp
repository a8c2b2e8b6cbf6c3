#pragma once
// The server process seen from outside: CPU and memory from /proc, tick durations from /metrics.
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace hschool::load {

struct ProcSample {
    double cpu_seconds = 0;    // utime + stime
    std::uint64_t rss_kib = 0; // VmRSS
    std::uint64_t hwm_kib = 0; // VmHWM, the peak RSS
};
// nullopt when the process is gone or /proc is unreadable.
std::optional<ProcSample> sample_process(int pid);

// One Prometheus histogram: cumulative counts per upper bound (the last is +Inf).
struct Histogram {
    std::vector<std::pair<double, double>> buckets;  // (le, cumulative count), ascending
    double count = 0;
    double sum = 0;
};
std::optional<Histogram> parse_histogram(std::string_view exposition, std::string_view name);
// later − earlier, bucket by bucket: the observations made in between.
Histogram subtract(const Histogram& later, const Histogram& earlier);
// Linear interpolation inside the bucket holding the q-quantile; the +Inf bucket reports its lower bound.
double quantile(const Histogram& h, double q);
// Share of observations at or below a bucket bound (exact only when bound is one of the buckets).
double fraction_at_most(const Histogram& h, double bound);
// Upper bound of the highest non-empty bucket: "max is at most this".
double max_bound(const Histogram& h);

}  // namespace hschool::load
