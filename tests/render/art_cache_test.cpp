// The shared art: blocks are built once, hold no slack, and cone pixels follow 64 directions.
#include <gtest/gtest.h>

#include <barrier>
#include <thread>
#include <vector>

#include "render/hns/art_cache.hpp"
#include "render/hns/canvas.hpp"

namespace {

namespace rh = hschool::render::hns;
using hschool::sim::hns::Team;

TEST(ArtCache, ConesWithinOneArtStepShareOneBlockAndFarAimsDoNot) {
    const auto a = rh::cone_block(64, true, 340, 35, 1);
    const auto b = rh::cone_block(65, true, 340, 35, 1);  // rounds to the same 4-brad direction
    const auto c = rh::cone_block(72, true, 340, 35, 1);
    EXPECT_EQ(a.get(), b.get());
    EXPECT_NE(a.get(), c.get());
    EXPECT_NE(a.get(), rh::cone_block(64, false, 340, 35, 1).get());  // the other team's colour
    EXPECT_EQ(rh::cone_block(254, true, 340, 35, 1).get(), rh::cone_block(0, true, 340, 35, 1).get());  // wraps
}

TEST(ArtCache, CompressedBlocksKeepNoSpareCapacity) {
    // Snappy needs a worst-case buffer while compressing; a kept block must not keep it (a 2× cone
    // kept 24× its size before).
    for (const auto& block : {rh::cone_block(128, false, 340, 35, 2), rh::cog_block(Team::Red, 3, 2), rh::padlock_block(2)}) {
        EXPECT_EQ(block->capacity(), block->size());
    }
}

TEST(Canvas, ScaledRepeatsEveryPixelKTimesInBothAxes) {
    rh::Canvas c(3, 2);
    c.put(0, 0, {1, 2, 3, 4});
    c.put(2, 1, {9, 8, 7, 6});
    const rh::Canvas s = c.scaled(3);
    ASSERT_EQ(s.width(), 9);
    ASSERT_EQ(s.height(), 6);
    for (int y = 0; y < 6; ++y)
        for (int x = 0; x < 9; ++x) {
            const auto want = c.at(x / 3, y / 3);
            const auto got = s.at(x, y);
            EXPECT_TRUE(want.r == got.r && want.g == got.g && want.b == got.b && want.a == got.a) << x << "," << y;
        }
}

TEST(ArtCache, ARepeatedRequestCompressesNothingNew) {
    (void)rh::cog_block(Team::Blue, 5, 1);
    const auto before = rh::blocks_compressed();
    for (int i = 0; i < 10; ++i) (void)rh::cog_block(Team::Blue, 5, 1);
    EXPECT_EQ(rh::blocks_compressed(), before);
}

TEST(ArtCache, ThreadsMissingTheSameBlockTogetherDrawItOnce) {
    // 64 replay viewers jumping to one tick all miss the same cone: one draws, the rest wait for it.
    constexpr int kThreads = 8;
    const auto before = rh::blocks_compressed();
    std::barrier start(kThreads);
    std::vector<rh::Block> got(kThreads);
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; ++i)
        threads.emplace_back([&, i] {
            start.arrive_and_wait();
            got[static_cast<std::size_t>(i)] = rh::cone_block(200, true, 340, 35, 2);  // a 2x cone: ~10 ms to draw
        });
    for (auto& t : threads) t.join();
    EXPECT_EQ(rh::blocks_compressed(), before + 1);
    for (const auto& block : got) EXPECT_EQ(block.get(), got[0].get());
}

}  // namespace
