#include "server_probe.hpp"

#include <unistd.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

namespace hschool::load {

namespace {

constexpr int kStatUtimeField = 11;  // fields after "(comm)": state is 0, utime 11, stime 12 (proc(5) 14 and 15)
constexpr int kStatStimeField = 12;

std::uint64_t status_kib(const std::string& status, std::string_view key) {
    const auto at = status.find(key);
    if (at == std::string::npos) return 0;
    std::istringstream in(status.substr(at + key.size()));
    std::uint64_t kib = 0;
    in >> kib;
    return kib;
}

double parse_number(std::string_view text) {
    if (text == "+Inf") return std::numeric_limits<double>::infinity();
    try {
        return std::stod(std::string(text));
    } catch (...) {
        return std::nan("");
    }
}

}  // namespace

std::optional<ProcSample> sample_process(int pid) {
    const std::string base = "/proc/" + std::to_string(pid);
    std::ifstream stat_file(base + "/stat");
    std::string stat((std::istreambuf_iterator<char>(stat_file)), {});
    const auto paren = stat.rfind(')');
    if (paren == std::string::npos) return std::nullopt;
    std::istringstream fields(stat.substr(paren + 2));
    std::string field;
    double utime = 0, stime = 0;
    for (int i = 0; fields >> field; ++i) {
        if (i == kStatUtimeField) utime = std::stod(field);
        if (i == kStatStimeField) {
            stime = std::stod(field);
            break;
        }
    }
    std::ifstream status_file(base + "/status");
    std::string status((std::istreambuf_iterator<char>(status_file)), {});
    ProcSample s;
    s.cpu_seconds = (utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
    s.rss_kib = status_kib(status, "VmRSS:");
    s.hwm_kib = status_kib(status, "VmHWM:");
    return s;
}

std::optional<Histogram> parse_histogram(std::string_view exposition, std::string_view name) {
    const std::string bucket = std::string(name) + "_bucket{";
    const std::string count = std::string(name) + "_count";
    const std::string sum = std::string(name) + "_sum";
    Histogram h;
    std::istringstream lines{std::string(exposition)};
    std::string line;
    while (std::getline(lines, line)) {
        if (line.empty() || line[0] == '#') continue;
        const auto space = line.rfind(' ');
        if (space == std::string::npos) continue;
        const double value = parse_number(std::string_view(line).substr(space + 1));
        if (line.starts_with(bucket)) {
            const auto le = line.find("le=\"");
            const auto end = line.find('"', le + 4);
            if (le == std::string::npos || end == std::string::npos) continue;
            h.buckets.emplace_back(parse_number(std::string_view(line).substr(le + 4, end - le - 4)), value);
        } else if (line.starts_with(count + " ") || line.starts_with(count + "{")) {
            h.count = value;
        } else if (line.starts_with(sum + " ") || line.starts_with(sum + "{")) {
            h.sum = value;
        }
    }
    if (h.buckets.empty()) return std::nullopt;
    return h;
}

Histogram subtract(const Histogram& later, const Histogram& earlier) {
    Histogram d = later;
    for (std::size_t i = 0; i < d.buckets.size() && i < earlier.buckets.size(); ++i) d.buckets[i].second -= earlier.buckets[i].second;
    d.count -= earlier.count;
    d.sum -= earlier.sum;
    return d;
}

double quantile(const Histogram& h, double q) {
    if (h.buckets.empty() || h.buckets.back().second <= 0) return 0;
    const double target = q * h.buckets.back().second;
    double lower = 0, below = 0;
    for (const auto& [le, cumulative] : h.buckets) {
        if (cumulative >= target) {
            if (std::isinf(le)) return lower;
            const double inside = cumulative - below;
            return inside > 0 ? lower + (le - lower) * (target - below) / inside : le;
        }
        lower = le;
        below = cumulative;
    }
    return lower;
}

double fraction_at_most(const Histogram& h, double bound) {
    if (h.buckets.empty() || h.buckets.back().second <= 0) return 0;
    double at_most = 0;
    for (const auto& [le, cumulative] : h.buckets) {
        if (le <= bound * (1 + 1e-9)) at_most = cumulative;
    }
    return at_most / h.buckets.back().second;
}

double max_bound(const Histogram& h) {
    double below = 0;
    double bound = 0;
    for (const auto& [le, cumulative] : h.buckets) {
        if (cumulative > below) bound = le;
        below = cumulative;
    }
    return bound;
}

}  // namespace hschool::load
