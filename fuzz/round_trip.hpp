#pragma once
// Shared check for the decoder fuzzers: every frame a decoder accepts (other than an Unknown id,
// which is skipped whole) must re-encode to exactly the same bytes, so no two frames mean the same.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <variant>

#include "protocol/bytes.hpp"

template <class Unknown, class Decoded, class Encode>
void expect_round_trip(const Decoded& decoded, const std::uint8_t* data, std::size_t size, Encode encode) {
    if (!decoded) return;
    std::visit(
        [&](const auto& message) {
            using M = std::decay_t<decltype(message)>;
            if constexpr (!std::is_same_v<M, Unknown>) {
                const hschool::protocol::Bytes again = encode(message);
                if (again.size() != size || !std::equal(again.begin(), again.end(), data)) __builtin_trap();
            } else {
                if (message.id != data[0]) __builtin_trap();
            }
        },
        decoded.value());
}
