// The setup RNG vectors of spec §3.17.
#include <gtest/gtest.h>

#include "sim/hns/rng.hpp"

namespace hns = hschool::sim::hns;

TEST(HnsRng, SplitmixDrawsOfSeeds42And0) {
    EXPECT_EQ(hns::setup_seed_draw(42), 4456085495900499605ULL);
    EXPECT_EQ(hns::setup_seed_draw(0), 7070836379803831727ULL);
}

TEST(HnsRng, Seed42ShufflesTheWarrenSpawnsThenThePads) {
    auto rng = hns::make_setup_rng(42);
    std::vector<int> order(24);
    for (int i = 0; i < 24; ++i) order[i] = i;
    rng.shuffle(order);
    EXPECT_EQ(order, (std::vector<int>{12, 4, 11, 10, 15, 14, 19, 16, 23, 3, 6, 18, 13, 20, 8, 0, 21, 7, 22, 17, 2, 9, 5, 1}));
    std::vector<int> pads{0, 1, 2};
    rng.shuffle(pads);
    EXPECT_EQ(pads, (std::vector<int>{0, 1, 2}));
    pads = {0, 1, 2};
    rng.shuffle(pads);
    EXPECT_EQ(pads, (std::vector<int>{2, 1, 0}));
}

TEST(HnsRng, RandOfZeroIsZeroWithoutADraw) {
    auto a = hns::make_setup_rng(7);
    auto b = hns::make_setup_rng(7);
    EXPECT_EQ(a.rand(0), 0u);
    EXPECT_EQ(a.next(), b.next());
}

TEST(HnsRng, ZeroSeedIsReplacedAsNimDoes) {
    hns::NimRand zero(0), nim(2147483647);
    EXPECT_EQ(zero.next(), nim.next());
}

TEST(HnsRng, RandStaysInRange) {
    auto rng = hns::make_setup_rng(1);
    for (int i = 0; i < 1000; ++i) EXPECT_LE(rng.rand(5), 5u);
}
