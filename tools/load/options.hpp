#pragma once
// hschool-load's command line.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "flood.hpp"
#include "hns_load.hpp"
#include "load_plan.hpp"

namespace hschool::load {

inline constexpr int kMaxClients = 60000;     // one process, one port range: a bound, not a goal
inline constexpr int kMaxSeconds = 600;       // every run ends
inline constexpr int kMaxThreads = 2;         // the brief: one or two threads
inline constexpr int kMaxRampBatch = 4096;
inline constexpr int kMaxFloodConnections = 64;  // a small group of hostile clients, not a load test
inline constexpr int kMaxHnsMatches = 1000;      // hns-seats: 6,000 sockets
inline constexpr int kMaxHnsSpectators = 2000;  // issue 19: the 200th spectator's cost; issue 31: 1,000 compact viewers
inline constexpr int kMaxHnsReplayViewers = 64;  // the server's own cap on /replay viewers

struct Options {
    LoadPlan plan;
    double seconds = 10;   // the measurement window
    double warmup_seconds = 1;  // after the ramp, before measuring (map snapshots, first ticks)
    double ramp_limit_seconds = 60;  // the whole ramp gives up after this
    int server_pid = 0;
    std::string label;
    bool json_only = false;
    FloodPlan flood;  // flood only: host, port, seconds and server pid are copied from the fields above
    HnsPlan hns;      // hns-*: likewise
};

// nullopt after printing usage or an error to stderr.
std::optional<Options> parse_options(int argc, char** argv);

const char* scenario_name(Scenario s);

}  // namespace hschool::load
