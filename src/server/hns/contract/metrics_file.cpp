#include "server/hns/contract/metrics_file.hpp"

#include <boost/json.hpp>

namespace hschool::server::hns {

namespace {

std::uint32_t u16_at(protocol::ByteView b, std::size_t at) { return static_cast<std::uint32_t>(b[at] | (b[at + 1] << 8)); }
std::uint64_t u32_at(protocol::ByteView b, std::size_t at) {
    return static_cast<std::uint64_t>(b[at]) | (static_cast<std::uint64_t>(b[at + 1]) << 8) |
           (static_cast<std::uint64_t>(b[at + 2]) << 16) | (static_cast<std::uint64_t>(b[at + 3]) << 24);
}

}  // namespace

void count_frame(FrameCounts& frames, PaceDecision decision, std::int64_t elapsed_us) {
    if (decision == PaceDecision::AllReady && elapsed_us < kFrameMicros) ++frames.skipped;
    else if (elapsed_us > kFrameMicros + kLateFrameSlackMicros) ++frames.late;
    else ++frames.waited;
}

void count_sprite_traffic(protocol::ByteView message, SeatTraffic& traffic) {
    traffic.total += message.size();
    std::size_t at = 0;
    while (at < message.size()) {
        const std::size_t left = message.size() - at;
        std::uint64_t size = 0;
        std::uint64_t* bucket = &traffic.other;
        switch (message[at]) {
            case 0x01: {  // type, id, w, h, u32 N, N bytes, u16 L, L bytes
                if (left < 11) break;
                const std::uint64_t n = u32_at(message, at + 7);
                if (left < 11 + n + 2) break;
                size = 11 + n + 2 + u16_at(message, at + 11 + static_cast<std::size_t>(n));
                bucket = &traffic.image;
                break;
            }
            case 0x02: size = 12; bucket = &traffic.object; break;
            case 0x03: size = 3; bucket = &traffic.object; break;
            case 0x04: size = 1; bucket = &traffic.object; break;
            case 0x05: size = 6; break;
            case 0x06: size = 4; break;
            default: break;
        }
        if (size == 0 || size > left) {  // unknown or truncated: the rest is "other"
            traffic.other += left;
            return;
        }
        *bucket += size;
        at += static_cast<std::size_t>(size);
    }
}

std::string metrics_json(int ticks, const FrameCounts& frames, const std::vector<SeatMetrics>& seats) {
    boost::json::array players;
    for (const auto& seat : seats) {
        players.push_back(boost::json::object{{"slot", seat.slot},
                                              {"name", seat.name},
                                              {"bytesTotal", seat.traffic.total},
                                              {"bytesImage", seat.traffic.image},
                                              {"bytesObject", seat.traffic.object},
                                              {"bytesOther", seat.traffic.other}});
    }
    boost::json::object out{
        {"ticks", ticks},
        {"frames", boost::json::object{{"skipped", frames.skipped},
                                       {"waited", frames.waited},
                                       {"late", frames.late},
                                       {"total", frames.skipped + frames.waited + frames.late}}},
        // The reference splits object bytes by its own object-id pools; ours has no such pools.
        {"objectPools", boost::json::object{}},
        {"players", std::move(players)},
    };
    return boost::json::serialize(out);
}

}  // namespace hschool::server::hns
