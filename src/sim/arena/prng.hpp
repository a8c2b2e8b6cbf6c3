#pragma once
// SplitMix64: a tiny seeded generator, so obstacle layouts depend on the seed and nothing else.
#include <cstdint>

namespace hschool::sim::arena {

class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }

    // Uniform in [low, high], from the top 24 bits so the float conversion is exact.
    float uniform(float low, float high) {
        constexpr float kUnitScale = 1.0f / 16777216.0f;  // 2^-24
        const float unit = static_cast<float>(next() >> 40) * kUnitScale;
        return low + (high - low) * unit;
    }

private:
    std::uint64_t state_;
};

}  // namespace hschool::sim::arena
