// libFuzzer target: Sprite v1 decoders in both directions on arbitrary bytes must never crash, and
// what they accept must re-encode to the same bytes and decode again to the same messages.
#include <algorithm>

#include "protocol/sprite_pixels.hpp"
#include "protocol/sprite_v1.hpp"

namespace {

namespace sv = hschool::protocol::sprite_v1;
using hschool::protocol::Bytes;
using hschool::protocol::ByteView;

// Decompressing is bounded here so that tiny inputs cannot make every run allocate 64 MiB.
constexpr std::size_t kMaxFuzzRgbaBytes = 1 << 20;

template <class Messages, class Decode>
void expect_round_trip(const Messages& messages, ByteView input, Decode decode) {
    Bytes again;
    for (const auto& m : messages)
        if (sv::append(again, m)) __builtin_trap();
    if (again.size() != input.size() || !std::equal(again.begin(), again.end(), input.begin())) __builtin_trap();
    const auto twice = decode(ByteView(again));
    if (!twice || *twice != messages) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const ByteView input(data, size);
    if (const auto server = sv::decode_server(input)) {
        expect_round_trip(*server, input, sv::decode_server);
        for (const auto& m : *server) {
            const auto* sprite = std::get_if<sv::DefineSprite>(&m);
            if (!sprite || sprite->pixels.empty() || sv::check_pixels(*sprite)) continue;
            if (std::size_t{sprite->width} * sprite->height * 4 > kMaxFuzzRgbaBytes) continue;
            // A block the full check passed must decompress to exactly w·h·4 bytes.
            const auto rgba = sv::decompress_rgba(sprite->pixels, sprite->width, sprite->height);
            if (!rgba || rgba->size() != std::size_t{sprite->width} * sprite->height * 4) __builtin_trap();
        }
    }
    if (const auto client = sv::decode_client(input)) expect_round_trip(*client, input, sv::decode_client);
    // The tolerant parser agrees with the strict one on everything before the fault.
    const auto prefix = sv::decode_client_prefix(input);
    if (!prefix.stopped != sv::decode_client(input).ok()) __builtin_trap();
    return 0;
}
