// libFuzzer: the training bridge's inputs (issue 41): a JSON request line (the parser, and a live
// session answering it), a binary request frame, a binary answer as a client reads it, and a
// numeric player's decision and policy answer.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "bridge_frames.hpp"
#include "numeric_seat.hpp"
#include "sim/hns/bridge_session.hpp"
#include "sim/hns/room_files.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace hns = hschool::sim::hns;
    namespace tools = hschool::tools::hns;
    static hns::BridgeSession session([](hns::GameConfig c) { return hns::resolve_room_spec(std::move(c)); });
    static const tools::NumericAsk ask = [] {
        tools::NumericAsk a;
        a.catalog[0] = hns::CatalogOrder{};
        return a;
    }();
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    (void)hns::parse_bridge_request(text);
    // A live episode answers whatever came: a fresh one when the last has ended.
    if (!session.has_decision()) (void)session.reset("fuzz");
    (void)session.handle_line(text);
    for (const int envs : {1, 3}) (void)tools::parse_frame_request(text, envs);
    (void)tools::parse_answer_payload(text);
    (void)tools::numeric_ask(text, "fuzz");
    (void)tools::numeric_order(ask, 200, text);
    return 0;
}
