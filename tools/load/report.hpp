#pragma once
// Turns what the clients and the probes saw into one JSON object and a readable table.
#include <boost/json/object.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "client_stats.hpp"
#include "options.hpp"
#include "server_probe.hpp"

namespace hschool::load {

struct RunFacts {
    const Options* options = nullptr;
    DriverResult result;
    double ramp_seconds = 0;
    double window_seconds = 0;
    std::optional<ProcSample> before_connect, window_start, window_end;
    std::optional<ProcSample> self_start, self_end;  // the load generator itself: on a small box it competes for the CPU
    std::optional<Histogram> tick_durations;  // observations made during the window
    std::optional<Histogram> arena_simulate;  // likewise, the arena's steps + capture + encode
    int schools_watched = 0;
    std::string error;
};

boost::json::object summarize(const RunFacts& facts);
void print_table(const boost::json::object& summary, std::ostream& out);
// The same for a flood run (run_flood's object).
void print_flood_table(const boost::json::object& summary, std::ostream& out);
// A number field of a summary as double, whatever JSON kind holds it; 0 when missing or not a number.
double json_number(const boost::json::object& o, const char* key);

}  // namespace hschool::load
