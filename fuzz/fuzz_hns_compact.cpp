// libFuzzer target: the compact watch stream (issue 31) on arbitrary bytes: the decoder never
// crashes; what it accepts re-encodes to the same bytes; a block the full check passes inflates to
// exactly its size and packs back to the same pixels; a receiver applying the messages never
// crashes whatever their order (unknown blocks and sprites are errors, not faults).
#include <algorithm>

#include "../tests/support/sprite_board.hpp"
#include "protocol/block_pixels.hpp"
#include "protocol/hns_compact.hpp"

namespace {

namespace hc = hschool::protocol::hns_compact;
using hschool::protocol::Bytes;
using hschool::protocol::ByteView;

// Inflating is bounded here so that tiny inputs cannot make every run allocate 64 MiB.
constexpr std::size_t kMaxFuzzRgbaBytes = 1 << 20;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const ByteView input(data, size);
    const auto decoded = hc::decode(input);
    if (!decoded) return 0;
    Bytes again;
    for (const auto& m : *decoded)
        if (hc::append(again, m)) __builtin_trap();
    if (again.size() != input.size() || !std::equal(again.begin(), again.end(), input.begin())) __builtin_trap();
    bool all_small = true;
    for (const auto& m : *decoded) {
        const auto* block = std::get_if<hc::DefineBlock>(&m);
        if (!block) continue;
        const std::size_t rgba_bytes = std::size_t{block->width} * block->height * 4;
        if (rgba_bytes > kMaxFuzzRgbaBytes) {
            all_small = false;
            continue;
        }
        const auto rgba = hc::unpack_block(*block);
        if (!rgba) continue;
        if (rgba->size() != rgba_bytes) __builtin_trap();
        const auto packed = hc::pack_block(*rgba, block->width, block->height);
        const auto back = hc::unpack_block({block->block_id, block->width, block->height, packed.scale, packed.zlib});
        if (!back || *back != *rgba) __builtin_trap();
    }
    if (all_small) {
        sprite_board::Board board;
        (void)board.apply_compact(input);
        (void)board.visible();
    }
    return 0;
}
