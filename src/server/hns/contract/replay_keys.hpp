#pragma once
// The replay transport keys of spec §2.8 as a pure state change (fuzzed with the REST bodies).
#include <string_view>

namespace hschool::server::hns {

inline constexpr int kReplayForwardTicks = 120;  // '.' and '>' (§2.8)

// Applies one transport text to the playback state: pure, so tests need no socket.
struct Transport {
    bool playing = true;
    bool loop = false;
    int speed_index = 0;  // into kPlaybackSpeeds
    int seek_to = -1;     // a tick to jump to (restart: 0), or −1
};
void apply_transport_text(Transport& transport, std::string_view text, int current_tick, int final_tick);

}  // namespace hschool::server::hns
