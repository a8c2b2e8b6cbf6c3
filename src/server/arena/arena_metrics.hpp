#pragma once
// What the arena reports for /metrics; the server's Metrics implements it.
#include <cstddef>

#include "net/ws_connection.hpp"

namespace hschool::server {

class ArenaMetrics {
public:
    virtual ~ArenaMetrics() = default;
    virtual void arena_simulate(double seconds) = 0;  // steps + snapshot capture and encode, per wake-up
    virtual void frames_dropped(net::ProtocolTag tag, std::size_t count) = 0;  // v5 Frames skipped for a slow client
};

}  // namespace hschool::server
