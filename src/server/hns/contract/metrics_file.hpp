#pragma once
// The episode's metrics file (COGAME_METRICS_URI), in the bitworld servers' shape:
// {"ticks","frames":{"skipped","waited","late","total"},"objectPools":{},"players":[{"slot","name",
// "bytesTotal","bytesImage","bytesObject","bytesOther"}]}. Pure: the match counts, this names.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "protocol/bytes.hpp"
#include "server/hns/contract/pacing.hpp"

namespace hschool::server::hns {

// A frame that went out later than this past its 41.7 ms slot counts as late.
inline constexpr std::int64_t kLateFrameSlackMicros = 10'000;

// Playing frames by how the pacer let them go (the reference counts the same three).
struct FrameCounts {
    std::uint64_t skipped = 0;  // fast mode: every seat was ready before the 24 Hz slot
    std::uint64_t waited = 0;   // the slot came and the frame went on time
    std::uint64_t late = 0;     // the frame went more than kLateFrameSlackMicros after its slot
};

// Counts one Playing frame the pacer let go after `elapsed_us` since the previous one.
void count_frame(FrameCounts& frames, PaceDecision decision, std::int64_t elapsed_us);

// Bytes sent to one seat's /player socket, by Sprite v1 message kind.
struct SeatTraffic {
    std::uint64_t total = 0;
    std::uint64_t image = 0;   // 0x01 Define Sprite
    std::uint64_t object = 0;  // 0x02 Define, 0x03 Delete, 0x04 Clear Objects
    std::uint64_t other = 0;   // viewport, layers, and anything it cannot parse
};

// Adds one WebSocket message of Sprite v1 server messages to `traffic`. A truncated or unknown
// message puts the rest under "other" and stops, as the reference's counter does.
void count_sprite_traffic(protocol::ByteView message, SeatTraffic& traffic);

struct SeatMetrics {
    int slot = 0;
    std::string name;
    SeatTraffic traffic;
};

std::string metrics_json(int ticks, const FrameCounts& frames, const std::vector<SeatMetrics>& seats);

}  // namespace hschool::server::hns
