#pragma once
// What the driver is asked to do: which protocol, how many clients, what each one sends. Beast-free.
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace hschool::load {

enum class Scenario { Arena, Schools, Idle, Flood, Hns };

inline constexpr auto kInputPeriod = std::chrono::microseconds(1'000'000 / 30);  // arena bots send inputs at 30 Hz
inline constexpr int kTimerTicksPerSecond = 30;                                   // the driver's timer rate
inline constexpr auto kMaskChangePeriod = std::chrono::seconds(1);                // a bot changes its buttons every second
inline constexpr auto kPingPeriod = std::chrono::seconds(1);                      // one Ping per client per second

// Waits out a warm-up or a measuring window.
inline void sleep_seconds(double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); }

// The steady clock in microseconds: arrival times, round trips (a Ping carries it and the Pong echoes it).
inline std::int64_t now_us() {
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
inline double seconds_between(std::int64_t a_us, std::int64_t b_us) { return static_cast<double>(b_us - a_us) / 1e6; }

struct LoadPlan {
    Scenario scenario = Scenario::Idle;
    std::string host = "127.0.0.1";
    std::uint16_t port = 0;
    int clients = 0;
    int threads = 1;
    int ramp_batch = 256;  // connections in flight at once, so the accept backlog is never overrun
    std::chrono::milliseconds connect_timeout{10'000};  // per connection, TCP connect to Welcome
    std::vector<std::int32_t> school_ids;  // schools: watchers are spread over these round-robin
    std::uint64_t seed = 1;
    int protocol = 1;  // arena: 1 (shared snapshots, inputs at 30 Hz) or 5 (deltas, one input per tick)
    int replica_every = 1;  // v5: every Nth client applies Frames to a replica; the others check the chain only
};

}  // namespace hschool::load
