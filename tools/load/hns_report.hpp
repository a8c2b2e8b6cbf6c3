#pragma once
// The hide-and-seek load's figures: the server's and the load generator's CPU and memory over a
// window (with how long the server's threads waited for a CPU), the sockets' frame intervals and
// rates, their ends, and the table printed from them.
#include <algorithm>
#include <boost/json/object.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hns_load.hpp"
#include "hns_sockets.hpp"
#include "server_probe.hpp"

namespace hschool::load {

// Nearest-rank percentile of a sorted vector; 0 when empty.
template <class T>
double sorted_percentile(const std::vector<T>& v, double p) {
    if (v.empty()) return 0;
    const auto rank = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
    return static_cast<double>(v[std::min(rank, v.size() - 1)]);
}

// Every thread's /proc/PID/task/TID/schedstat, summed.
struct SchedSample {
    double run_ns = 0, wait_ns = 0, slices = 0;
};

// The server (when its pid is known) and the load generator at one instant.
struct Probe {
    std::optional<ProcSample> server, self;
    std::optional<SchedSample> sched;
    std::int64_t at_us = 0;
};
Probe probe(const HnsPlan& plan);

// CPU %, memory and run-queue waits between two probes, under keys starting with `prefix`.
void put_cpu(boost::json::object& o, const char* prefix, const Probe& a, const Probe& b);
// Frame intervals, frames and bytes over the window, for every socket that was open.
void put_frames(boost::json::object& o, const std::vector<const HnsSocket*>& sockets, double window);
// How many opened, failed and were closed by the server (with their codes and reasons).
void put_sockets(boost::json::object& o, const std::vector<const HnsSocket*>& sockets);
// The scenario, the variant and the machine's load at the start.
boost::json::object base_object(const HnsPlan& plan, const std::string& variant);
// One socket's figures in a watch window: bytes in its first seconds, then bytes and frames a second.
boost::json::object viewer_figures(const HnsSocket& s, double window);

}  // namespace hschool::load
