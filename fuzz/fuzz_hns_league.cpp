// libFuzzer: what the league pieces parse — the metrics counter's walk over Sprite v1 bytes (every
// byte lands in exactly one bucket) and the seat program's reading of the game's text messages.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "seat_session.hpp"
#include "server/hns/contract/metrics_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace hns = hschool::server::hns;
    namespace seat = hschool::tools::hns;
    hns::SeatTraffic t;
    hns::count_sprite_traffic(hschool::protocol::ByteView(data, size), t);
    if (t.total != size || t.image + t.object + t.other != size) std::abort();

    static int orders = 0;
    static seat::SeatSession session(seat::SeatPolicy{"burrow", true, ""}, [](const std::string&) {
        ++orders;
        return std::optional<std::string>("{}");
    });
    const auto out = session.on_message(true, std::string(reinterpret_cast<const char*>(data), size));
    // Always the ready last; at most a re-sent registration and one order before it.
    if (out.empty() || out.size() > 3 || out.back().size() != 1) std::abort();
    return 0;
}
