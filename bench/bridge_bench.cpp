// The training bridge's speed without its pipes (issue 41): how many decisions per second one core
// plays through BridgeEpisode alone (the simulation and its driver, every seat answering watch),
// through BridgeSession (plus each decision's values and mask: what the bridge adds), and a
// headless match's ticks per second beside them. One JSON line of figures on stdout.
//   hschool-bridge-bench sim|session|lines|match EPISODES
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "sim/hns/bridge_session.hpp"
#include "sim/hns/match.hpp"
#include "sim/hns/room_files.hpp"
#include "sim/hns/string_seed.hpp"

namespace hns = hschool::sim::hns;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// This process's CPU time so far (user + system): on a busy box, what one core's worth plays.
double cpu_seconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: hschool-bridge-bench sim|session|lines|match EPISODES\n");
        return 2;
    }
    const std::string mode = argv[1];
    const int episodes = std::atoi(argv[2]);
    long long decisions = 0, ticks = 0;
    const auto start = Clock::now();
    const double cpu_start = cpu_seconds();
    if (mode == "sim") {
        for (int e = 0; e < episodes; ++e) {
            auto config = hns::resolve_room_spec(hns::bridge_config(hns::bridge_seed_of(std::to_string(e))));
            auto episode = hns::BridgeEpisode::create(*config);
            while (!episode->finished()) {
                episode->answer(R"({"intent":"watch"})");
                ++decisions;
            }
            ticks += episode->sim().tick_count();
        }
    } else if (mode == "session") {
        hns::BridgeSession session([](hns::GameConfig c) { return hns::resolve_room_spec(std::move(c)); });
        hns::NumericValues values{};
        hns::LegalMask mask{};
        for (int e = 0; e < episodes; ++e) {
            if (auto error = session.reset(std::to_string(e))) return std::fprintf(stderr, "%s\n", error->c_str()), 1;
            while (session.has_decision()) {
                session.observe(values, mask);
                session.step_index(0);
                ++decisions;
            }
        }
    } else if (mode == "lines") {
        // The JSON-lines contract without its pipes: reset, then encode and step(watch) per decision.
        hns::BridgeSession session([](hns::GameConfig c) { return hns::resolve_room_spec(std::move(c)); });
        std::size_t bytes = 0;
        for (int e = 0; e < episodes; ++e) {
            bytes += session.handle_line(R"({"kind":"reset","seed":")" + std::to_string(e) + R"(","players":6})").size();
            while (session.has_decision()) {
                bytes += session.handle_line(R"({"kind":"encode"})").size();
                bytes += session.handle_line(R"({"kind":"step","decision_id":)" + std::to_string(session.decision_id()) +
                                             R"(,"response":"{\"intent\":\"watch\"}"})").size();
                ++decisions;
            }
        }
        ticks = static_cast<long long>(bytes);  // reported as bytes written, in place of ticks
    } else if (mode == "match") {
        auto config = hns::variant_config("certification");
        for (int e = 0; e < episodes; ++e) {
            config->seed = e;
            auto pinned = hns::resolve_room_spec(*config);
            auto outcome = hns::run_match(*pinned, hns::MatchOptions{});
            ticks += outcome->finalTick;
        }
    } else {
        std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
        return 2;
    }
    const double s = seconds_since(start), cpu = cpu_seconds() - cpu_start;
    std::printf("{\"mode\":\"%s\",\"episodes\":%d,\"decisions\":%lld,\"ticks\":%lld,\"seconds\":%.4f,\"cpu_seconds\":%.4f,"
                "\"decisions_per_s\":%.1f,\"decisions_per_cpu_s\":%.1f,\"ticks_per_s\":%.1f,\"ticks_per_cpu_s\":%.1f}\n",
                mode.c_str(), episodes, decisions, ticks, s, cpu, decisions / s, cpu > 0 ? decisions / cpu : 0.0, ticks / s,
                cpu > 0 ? ticks / cpu : 0.0);
    return 0;
}
