#pragma once
// 64-bit FNV-1a over the exact bytes of the state: two worlds agree iff their inputs agreed.
#include <bit>
#include <cstdint>
#include <string_view>

namespace hschool::sim::arena {

class StateHasher {
public:
    static constexpr std::uint64_t kOffsetBasis = 0xCBF29CE484222325ull;
    static constexpr std::uint64_t kPrime = 0x100000001B3ull;

    void u8(std::uint8_t v) {
        hash_ ^= v;
        hash_ *= kPrime;
    }
    void u32(std::uint32_t v) { little_endian(v, 4); }
    void u64(std::uint64_t v) { little_endian(v, 8); }
    void f32(float v) { u32(std::bit_cast<std::uint32_t>(v)); }  // bit pattern, so -0 and 0 differ
    void text(std::string_view s) {
        u32(static_cast<std::uint32_t>(s.size()));  // length first, so "ab"+"c" differs from "a"+"bc"
        for (char c : s) u8(static_cast<std::uint8_t>(c));
    }
    std::uint64_t value() const { return hash_; }

private:
    void little_endian(std::uint64_t v, int width) {
        for (int i = 0; i < width; ++i) u8(static_cast<std::uint8_t>(v >> (8 * i)));
    }
    std::uint64_t hash_ = kOffsetBasis;
};

}  // namespace hschool::sim::arena
