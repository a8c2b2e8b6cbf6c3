#include "server/hns/contract/pacing.hpp"

#include <algorithm>

#include "protocol/sprite_v1.hpp"

namespace hschool::server::hns {

void note_player_message(PaceSocket& socket, protocol::ByteView ws_message) {
    if (protocol::sprite_v1::is_standalone_ready(ws_message)) socket.ready = true;
}

void clear_ready(std::vector<PaceSocket>& sockets) {
    for (auto& s : sockets) s.ready = false;
}

bool all_active_ready(const std::vector<PaceSocket>& sockets, int player_count) {
    bool any_active = false;
    for (const auto& s : sockets) {
        if (s.player_index < 0 || s.player_index >= player_count) continue;
        any_active = true;
        if (!s.ready) return false;
    }
    return any_active;
}

PaceDecision pace(const PaceInput& input) {
    if (input.elapsed_us >= kFrameMicros) return PaceDecision::FrameElapsed;
    if (input.fast_mode && !input.replay_mode && input.all_ready) return PaceDecision::AllReady;
    return PaceDecision::Wait;
}

int ticks_per_frame(int speed_index) {
    return kPlaybackSpeeds[static_cast<std::size_t>(std::clamp(speed_index, 0, kMaxSpeedIndex))];
}

int apply_live_speed_keys(int speed_index, std::string_view text) {
    if (text.substr(0, 2) == "s:") return speed_index;  // a seek: replay mode only
    int index = std::clamp(speed_index, 0, kMaxSpeedIndex);
    for (char c : text) {
        switch (c) {
        case '+': case '=': index = std::min(index + 1, kMaxSpeedIndex); break;
        case '-': case '_': index = std::max(index - 1, 0); break;
        case '1': index = 0; break;
        case '2': index = 1; break;
        case '3': index = 2; break;
        case '4': index = 3; break;
        case '8': index = 4; break;
        case '6': index = 5; break;
        case '5': index = 0; break;  // half speed: live play clamps it to 1×
        default: break;
        }
    }
    return index;
}

}  // namespace hschool::server::hns
