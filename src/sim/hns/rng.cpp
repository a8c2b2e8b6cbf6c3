#include "sim/hns/rng.hpp"

#include <utility>

namespace hschool::sim::hns {
namespace {

constexpr std::uint64_t kSplitmixGamma = 0x9E3779B97F4A7C15ULL;
constexpr std::uint64_t kSplitmixMul1 = 0xBF58476D1CE4E5B9ULL;
constexpr std::uint64_t kSplitmixMul2 = 0x94D049BB133111EBULL;
constexpr std::int64_t kNimZeroSeed = 2147483647;
constexpr std::uint64_t kJump[2] = {0xbeac0467eba5facbULL, 0xd86b048b86aa9922ULL};
constexpr std::uint64_t kPositiveMask = 0x7FFFFFFFFFFFFFFFULL;

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

std::uint64_t splitmix64(std::uint64_t& state) {
    state += kSplitmixGamma;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * kSplitmixMul1;
    z = (z ^ (z >> 27)) * kSplitmixMul2;
    return z ^ (z >> 31);
}

NimRand::NimRand(std::int64_t seed) {
    const std::int64_t s = seed == 0 ? kNimZeroSeed : seed;
    // Arithmetic shift, as Nim's `shr` on a signed int64.
    a0_ = static_cast<std::uint64_t>(s >> 16);
    a1_ = static_cast<std::uint64_t>(s & 0xFFFF);
    jump();
    next();
}

std::uint64_t NimRand::next() {
    const std::uint64_t s0 = a0_;
    std::uint64_t s1 = a1_;
    const std::uint64_t result = s0 + s1;
    s1 ^= s0;
    a0_ = rotl(s0, 55) ^ s1 ^ (s1 << 14);
    a1_ = rotl(s1, 36);
    return result;
}

void NimRand::jump() {
    std::uint64_t s0 = 0;
    std::uint64_t s1 = 0;
    for (std::uint64_t word : kJump) {
        for (int b = 0; b < 64; ++b) {
            if ((word >> b) & 1ULL) {
                s0 ^= a0_;
                s1 ^= a1_;
            }
            next();
        }
    }
    a0_ = s0;
    a1_ = s1;
}

std::uint64_t NimRand::rand(std::uint64_t max) {
    if (max == 0) return 0;
    constexpr std::uint64_t kRandMax = ~0ULL;
    for (;;) {
        const std::uint64_t x = next();
        if (x <= kRandMax - (kRandMax % max)) return x % (max + 1);
    }
}

void NimRand::shuffle(std::vector<int>& items) {
    for (std::size_t i = items.size(); i-- > 1;) {
        const auto j = static_cast<std::size_t>(rand(i));
        std::swap(items[i], items[j]);
    }
}

std::uint64_t setup_seed_draw(std::int64_t seed) {
    auto state = static_cast<std::uint64_t>(seed);
    return splitmix64(state) & kPositiveMask;
}

NimRand make_setup_rng(std::int64_t seed) {
    const std::uint64_t draw = setup_seed_draw(seed);
    return NimRand(static_cast<std::int64_t>(draw < 1 ? 1 : draw));
}

}  // namespace hschool::sim::hns
