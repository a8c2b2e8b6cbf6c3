#pragma once
// What one simulated client saw. Counters marked "window" only grow while the driver is measuring.
#include <cstdint>
#include <vector>

namespace hschool::load {

struct ClientStats {
    bool welcomed = false;
    bool failed = false;               // never got Welcome (connect, handshake or timeout)
    bool closed_after_welcome = false; // the server or the network ended it mid-run
    std::uint16_t close_code = 0;
    std::uint8_t tick_rate = 0;        // from Welcome
    std::uint32_t welcome_us = 0;      // connect start → Welcome
    std::uint64_t tick_frames = 0;     // window: Snapshot or Clock frames
    std::uint64_t bytes = 0;           // window: every payload byte received
    std::uint64_t tick_gaps = 0;       // window: ticks missing between consecutive tick frames
    std::uint64_t chain_errors = 0;    // v5: Frames the replica refused (a broken delta chain)
};

struct DriverResult {
    std::vector<ClientStats> clients;
    std::vector<std::uint32_t> rtt_us;  // window: one per Pong received
    std::uint64_t pings_sent = 0;       // window
    std::uint64_t send_errors = 0;
};

}  // namespace hschool::load
