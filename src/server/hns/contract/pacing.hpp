#pragma once
// Pacing (spec §2.7, §2.8) as a clock-free plan: the caller measures time, these functions decide.
// 24 Hz by wall clock; in fast mode a tick goes as soon as every active seat socket has sent a
// standalone 0x85 since the last frame; /global speed keys set 1–16 ticks per frame.
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "protocol/bytes.hpp"
#include "server/hns/contract/limits.hpp"

namespace hschool::server::hns {

// Ready state of one player socket (admitted or not).
struct PaceSocket {
    int player_index = -1;  // active when in [0, player_count)
    bool ready = false;
};

// Marks the socket ready only for a WebSocket message that is exactly the 1-byte 0x85.
void note_player_message(PaceSocket& socket, protocol::ByteView ws_message);
// Step 6 of the loop in fast mode: every socket's flag is cleared after the step.
void clear_ready(std::vector<PaceSocket>& sockets);
// True when at least one socket is active and every active socket is ready.
bool all_active_ready(const std::vector<PaceSocket>& sockets, int player_count);

enum class PaceDecision {
    Wait,          // sleep 1–2 ms and ask again
    FrameElapsed,  // 41,666 µs since the limiter last returned
    AllReady,      // fast mode: every active seat is ready
};

struct PaceInput {
    std::int64_t elapsed_us = 0;  // since the previous limiter returned
    bool fast_mode = true;
    bool replay_mode = false;
    bool all_ready = false;  // all_active_ready(...)
};
PaceDecision pace(const PaceInput& input);

// Ticks per frame the live server steps, by speed index (§2.8 PlaybackSpeeds).
inline constexpr std::array<int, kMaxSpeedIndex + 1> kPlaybackSpeeds{1, 2, 3, 4, 8, 16};
inline constexpr int kDefaultSpeedIndex = 0;
int ticks_per_frame(int speed_index);
// Applies a /global 0x81 text in live mode: every character is a key; other keys and a replay
// seek ("s:<tick>") leave the speed as it is.
int apply_live_speed_keys(int speed_index, std::string_view text);

}  // namespace hschool::server::hns
