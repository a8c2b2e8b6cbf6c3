// Pacing without a clock (spec §2.7, §2.8, conformance §6.11, §6.20): a virtual microsecond clock
// drives the limiter decision the way the loop will.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "server/hns/contract/pacing.hpp"

namespace hschool::server::hns {
namespace {

const std::vector<std::uint8_t> kReady{0x85};
const std::vector<std::uint8_t> kReadyBundled{0x84, 0x01, 0x85};
const std::vector<std::uint8_t> kReadyTwice{0x85, 0x85};

std::vector<PaceSocket> six_seats() {
    std::vector<PaceSocket> s;
    for (int i = 0; i < 6; ++i) s.push_back(PaceSocket{i, false});
    return s;
}

TEST(HnsPacing, FrameIs41666Microseconds) { EXPECT_EQ(kFrameMicros, 41666); }

TEST(HnsPacing, OnlyAStandaloneOneByte0x85CountsAsReady) {
    PaceSocket s{0, false};
    note_player_message(s, kReadyBundled);
    EXPECT_FALSE(s.ready);
    note_player_message(s, kReadyTwice);
    EXPECT_FALSE(s.ready);
    note_player_message(s, std::vector<std::uint8_t>{});
    EXPECT_FALSE(s.ready);
    note_player_message(s, kReady);
    EXPECT_TRUE(s.ready);
}

TEST(HnsPacing, AllReadyNeedsEveryActiveSocketAndAtLeastOne) {
    auto seats = six_seats();
    EXPECT_FALSE(all_active_ready(seats, 6));
    for (auto& s : seats) note_player_message(s, kReady);
    EXPECT_TRUE(all_active_ready(seats, 6));
    seats[3].ready = false;
    EXPECT_FALSE(all_active_ready(seats, 6));
    EXPECT_TRUE(all_active_ready(seats, 3));  // slot 3 not yet admitted: not active
    EXPECT_FALSE(all_active_ready({}, 6));
    EXPECT_FALSE(all_active_ready({PaceSocket{-1, true}, PaceSocket{0x7fffffff, true}}, 6));
    clear_ready(seats);
    for (const auto& s : seats) EXPECT_FALSE(s.ready);
}

TEST(HnsPacing, LimiterDecisions) {
    EXPECT_EQ(pace({kFrameMicros, true, false, false}), PaceDecision::FrameElapsed);
    EXPECT_EQ(pace({kFrameMicros - 1, true, false, false}), PaceDecision::Wait);
    EXPECT_EQ(pace({0, true, false, true}), PaceDecision::AllReady);
    EXPECT_EQ(pace({0, false, false, true}), PaceDecision::Wait);  // fast mode off
    EXPECT_EQ(pace({0, true, true, true}), PaceDecision::Wait);    // replay mode
}

// Runs `seconds` of virtual time: each seat in `answering` answers 0x85 `reply_us` after a frame
// is sent; returns the ticks stepped. Polls every 1 ms like the reference's limiter.
int simulate(int answering, std::int64_t reply_us, std::int64_t duration_us) {
    auto seats = six_seats();
    std::int64_t now = 0, limiter_returned = 0, sent_at = 0;
    int ticks = 0;
    while (now < duration_us) {
        for (int i = 0; i < answering; ++i)
            if (now - sent_at >= reply_us) note_player_message(seats[static_cast<std::size_t>(i)], kReady);
        const auto d = pace({now - limiter_returned, true, false, all_active_ready(seats, 6)});
        if (d == PaceDecision::Wait) {
            now += 1000;
            continue;
        }
        limiter_returned = now;
        ++ticks;              // step, then:
        clear_ready(seats);   // step 6, before the frames go out
        sent_at = now;        // step 7
    }
    return ticks;
}

TEST(HnsPacing, SixReadySeatsRunFarAbove24Hz) {
    EXPECT_GE(simulate(6, 2000, 1'000'000), 300);  // 2 ms round trip → ≈ 333 ticks/s
}

TEST(HnsPacing, OneSilentSeatDegradesTo24Hz) {
    const int ticks = simulate(5, 2000, 1'000'000);
    EXPECT_GE(ticks, 23);
    EXPECT_LE(ticks, 25);
}

TEST(HnsSpeed, KeysStepThroughPlaybackSpeeds) {
    EXPECT_EQ(ticks_per_frame(kDefaultSpeedIndex), 1);
    EXPECT_EQ(ticks_per_frame(apply_live_speed_keys(0, "6")), 16);
    EXPECT_EQ(ticks_per_frame(apply_live_speed_keys(0, "8")), 8);
    EXPECT_EQ(ticks_per_frame(apply_live_speed_keys(0, "4")), 4);
    EXPECT_EQ(ticks_per_frame(apply_live_speed_keys(0, "3")), 3);
    EXPECT_EQ(ticks_per_frame(apply_live_speed_keys(5, "2")), 2);
    EXPECT_EQ(ticks_per_frame(apply_live_speed_keys(5, "1")), 1);
    EXPECT_EQ(apply_live_speed_keys(0, "+"), 1);
    EXPECT_EQ(apply_live_speed_keys(0, "=="), 2);
    EXPECT_EQ(apply_live_speed_keys(0, "++++++++"), 5);  // clamped at 16
    EXPECT_EQ(apply_live_speed_keys(3, "-"), 2);
    EXPECT_EQ(apply_live_speed_keys(3, "____"), 0);      // clamped at 1
    EXPECT_EQ(apply_live_speed_keys(4, "5"), 0);         // half speed clamps to 1×
}

TEST(HnsSpeed, EveryCharacterIsAKeyAndOthersAreIgnored) {
    EXPECT_EQ(apply_live_speed_keys(0, "6-"), 4);
    EXPECT_EQ(apply_live_speed_keys(2, "xyz p"), 2);
    EXPECT_EQ(apply_live_speed_keys(2, "s:120"), 2);  // a seek is replay-only
    EXPECT_EQ(apply_live_speed_keys(2, ""), 2);
    EXPECT_EQ(apply_live_speed_keys(99, ""), 5);       // an out-of-range index is clamped
    EXPECT_EQ(ticks_per_frame(-3), 1);
    EXPECT_EQ(ticks_per_frame(42), 16);
}

}  // namespace
}  // namespace hschool::server::hns
