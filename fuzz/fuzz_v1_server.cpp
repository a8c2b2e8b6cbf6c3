// libFuzzer target: protocol::v1::decode_server on arbitrary bytes must never crash, and every
// frame it accepts (other than an Unknown id, which is skipped whole) must re-encode to exactly
// the same bytes: one encoding per message, so no two frames mean the same thing.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <variant>

#include "protocol/v1.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace p = hschool::protocol::v1;
    const hschool::protocol::ByteView frame(data, size);
    const auto decoded = p::decode_server(frame);
    if (!decoded) return 0;
    std::visit(
        [&](const auto& message) {
            using M = std::decay_t<decltype(message)>;
            if constexpr (!std::is_same_v<M, p::Unknown>) {
                const hschool::protocol::Bytes again = p::encode(message);
                if (again.size() != size || !std::equal(again.begin(), again.end(), data)) __builtin_trap();
            } else {
                if (message.id != data[0]) __builtin_trap();
            }
        },
        decoded.value());
    return 0;
}
