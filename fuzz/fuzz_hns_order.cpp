// libFuzzer: reply extraction and the order parser.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sim/hns/orders.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace hns = hschool::sim::hns;
    static const hns::OrderContext ctx = [] {
        hns::OrderContext c;
        c.objectIds = {"box1", "box2", "pan1", "ramp1"};
        c.rampIds = {"ramp1"};
        c.anchorIds = {"h1", "p1", "d1", "r1"};
        return c;
    }();
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto extracted = hns::extract_json_object(text);
    if (extracted) (void)hns::parse_order(*extracted, ctx);
    (void)hns::parse_order(text, ctx);
    return 0;
}
