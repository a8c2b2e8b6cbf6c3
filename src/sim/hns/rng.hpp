#pragma once
// The setup RNG (§3.17): splitmix64 folds the seed into Nim's std/random Rand (xoroshiro128+),
// bit for bit, because the object deal and the pad orders are drawn from it.
#include <cstdint>
#include <vector>

namespace hschool::sim::hns {

std::uint64_t splitmix64(std::uint64_t& state);

class NimRand {
public:
    // Nim's initRand(seed): a zero seed becomes 2147483647, then jump, then one discarded draw.
    explicit NimRand(std::int64_t seed);

    std::uint64_t next();
    // Nim's rand(max): uniform in 0..max inclusive, by rejection.
    std::uint64_t rand(std::uint64_t max);
    // Nim's shuffle: Fisher-Yates from the top down.
    void shuffle(std::vector<int>& items);

    std::uint64_t a0() const { return a0_; }
    std::uint64_t a1() const { return a1_; }

private:
    void jump();
    std::uint64_t a0_ = 0;
    std::uint64_t a1_ = 0;
};

// splitmix64 of the seed, masked to 63 bits, as newSetupRng draws it.
std::uint64_t setup_seed_draw(std::int64_t seed);
NimRand make_setup_rng(std::int64_t seed);

}  // namespace hschool::sim::hns
