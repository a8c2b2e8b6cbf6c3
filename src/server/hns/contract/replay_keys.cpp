#include "server/hns/contract/replay_keys.hpp"

#include <algorithm>
#include <charconv>

#include "server/hns/contract/limits.hpp"

namespace hschool::server::hns {

void apply_transport_text(Transport& t, std::string_view text, int current_tick, int final_tick) {
    if (text.substr(0, 2) == "s:") {
        int tick = 0;
        const auto digits = text.substr(2);
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), tick);
        if (ec == std::errc() && end == digits.data() + digits.size()) t.seek_to = std::clamp(tick, 0, final_tick);
        return;
    }
    for (char c : text) {
        switch (c) {
        case ' ': t.playing = !t.playing; break;
        case 'p': t.playing = true; break;
        case 'P': t.playing = false; break;
        case ',': case '<': t.seek_to = 0; break;
        case 'b': t.seek_to = std::max(0, (t.seek_to >= 0 ? t.seek_to : current_tick) - 1); t.playing = false; break;
        case '.': case '>': t.seek_to = std::min(final_tick, (t.seek_to >= 0 ? t.seek_to : current_tick) + kReplayForwardTicks); break;
        case 'e': t.seek_to = final_tick; break;
        case 'r': t.loop = !t.loop; break;
        case '+': case '=': t.speed_index = std::min(t.speed_index + 1, kMaxSpeedIndex); break;
        case '-': case '_': t.speed_index = std::max(t.speed_index - 1, 0); break;
        case '1': t.speed_index = 0; break;
        case '2': t.speed_index = 1; break;
        case '3': t.speed_index = 2; break;
        case '4': t.speed_index = 3; break;
        case '8': t.speed_index = 4; break;
        case '6': t.speed_index = 5; break;
        default: break;  // 'f' (skip lulls) and '5' (half speed) are not offered by this server
        }
    }
}

}  // namespace hschool::server::hns
