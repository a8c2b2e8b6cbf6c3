// libFuzzer target: replay bytes come from disk, so reading and verifying arbitrary bytes must
// never crash, hang or allocate without bound. Also checks the reader and the verifier agree.
#include <cstddef>
#include <cstdint>

#include "sim/replay/replay_reader.hpp"
#include "sim/replay/replay_verify.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace replay = hschool::sim::replay;
    const hschool::protocol::ByteView bytes(data, size);

    replay::ReplayReader reader(bytes);
    std::uint32_t records = 0;
    if (reader.header_ok()) {
        replay::ReplayTick tick;
        std::size_t offset = reader.offset();
        while (reader.next(tick)) {
            ++records;
            // Each record is whole, in order, and moves the reader forward within the bytes.
            if (tick.tick != records || reader.offset() <= offset || reader.offset() > size) __builtin_trap();
            if (reader.last_tick() != tick.tick) __builtin_trap();
            offset = reader.offset();
        }
        if (reader.error() == replay::ReplayError::None && reader.offset() != size) __builtin_trap();
    } else if (reader.error() == replay::ReplayError::None) {
        __builtin_trap();  // a bad header must say why
    }

    const auto verdict = replay::verify_replay(bytes);
    // The verifier never checks more records than the reader found whole.
    if (verdict.ticks_checked > records) __builtin_trap();
    if (verdict.first_mismatch_tick && *verdict.first_mismatch_tick != verdict.ticks_checked) __builtin_trap();
    if (!verdict.first_mismatch_tick && verdict.ticks_checked != records) __builtin_trap();
    (void)replay::describe(verdict);
    return 0;
}
