// libFuzzer target: a stream of v5 server frames (each behind a u16 length) decoded and applied
// to a Replica must never crash, and a refused Frame must leave the replica as it was.
#include <cstddef>
#include <cstdint>

#include "protocol/v5.hpp"
#include "sim/arena/v5/replica.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace p5 = hschool::protocol::v5;
    hschool::sim::arena::v5::Replica replica;
    std::size_t at = 0;
    while (at + 2 <= size) {
        const std::size_t length = data[at] | (std::size_t{data[at + 1]} << 8);
        at += 2;
        if (length > size - at) break;
        const auto decoded = p5::decode_server(hschool::protocol::ByteView(data + at, length));
        at += length;
        if (!decoded) continue;
        const auto* frame = std::get_if<p5::Frame>(&*decoded);
        if (!frame) continue;
        const auto before = replica.entries();
        const std::uint32_t tick = replica.tick();
        if (replica.apply(*frame)) {
            if (replica.entries() != before || replica.tick() != tick) __builtin_trap();
        } else if (replica.tick() != frame->tick || replica.size() > p5::kSlotLimit) {
            __builtin_trap();
        }
    }
    return 0;
}
