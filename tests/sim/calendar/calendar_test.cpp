#include "sim/calendar/calendar.hpp"

#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

namespace hschool::sim {
namespace {

constexpr std::int64_t kOneRealSecondUs = 1'000'000;
constexpr std::int64_t kOneGameMinuteMs = 60'000;
constexpr std::int64_t kTickUs = 50'000;  // 20 Hz

SchoolClock clock_at_speed(std::uint8_t speed_index) {
    SchoolClock clock = make_school_clock(kDefaultStartDateMs);
    clock.speed_index = speed_index;
    return clock;
}

TEST(Calendar, NamedConstantsMatchTheSpec) {
    EXPECT_EQ(kGameMinutesPerRealSecond, 5);
    EXPECT_EQ(kSpeedCount, 5);
    EXPECT_EQ(kDefaultSpeedIndex, 1);
    EXPECT_EQ(kDefaultStartDateMs, 1333432800000);
}

TEST(Calendar, NewSchoolRunsAtDefaultSpeedFromItsStartDate) {
    const SchoolClock clock = make_school_clock(42);
    EXPECT_EQ(clock.game_time_ms, 42);
    EXPECT_TRUE(clock.running);
    EXPECT_EQ(clock.speed_index, kDefaultSpeedIndex);
    EXPECT_EQ(clock.carry_game_ns, 0);
}

TEST(Calendar, GameMsPerRealSecondAtEverySpeed) {
    EXPECT_EQ(game_ms_per_real_second(0), 150'000);
    EXPECT_EQ(game_ms_per_real_second(1), 300'000);
    EXPECT_EQ(game_ms_per_real_second(2), 600'000);
    EXPECT_EQ(game_ms_per_real_second(3), 900'000);
    EXPECT_EQ(game_ms_per_real_second(4), 1'200'000);
    EXPECT_EQ(game_ms_per_real_second(5), 0);
    EXPECT_EQ(game_ms_per_real_second(255), 0);
}

TEST(Calendar, OneRealSecondAtEachSpeed) {
    const std::int64_t expected_game_ms[kSpeedCount] = {
        5 * kOneGameMinuteMs / 2, 5 * kOneGameMinuteMs, 10 * kOneGameMinuteMs, 15 * kOneGameMinuteMs,
        20 * kOneGameMinuteMs};
    for (std::uint8_t speed = 0; speed < kSpeedCount; ++speed) {
        SchoolClock clock = clock_at_speed(speed);
        advance(clock, kOneRealSecondUs);
        EXPECT_EQ(clock.game_time_ms - kDefaultStartDateMs, expected_game_ms[speed]) << "speed " << int(speed);
        EXPECT_EQ(clock.carry_game_ns, 0);
    }
}

TEST(Calendar, OneRealMillisecondIsExact) {
    SchoolClock normal = clock_at_speed(1);
    advance(normal, 1'000);
    EXPECT_EQ(normal.game_time_ms - kDefaultStartDateMs, 300);

    SchoolClock half = clock_at_speed(0);
    advance(half, 1'000);
    EXPECT_EQ(half.game_time_ms - kDefaultStartDateMs, 150);
}

TEST(Calendar, PausedClockDoesNotAdvance) {
    SchoolClock clock = make_school_clock(kDefaultStartDateMs);
    set_running(clock, false);
    advance(clock, 10 * kOneRealSecondUs);
    EXPECT_EQ(clock.game_time_ms, kDefaultStartDateMs);
    EXPECT_EQ(clock.carry_game_ns, 0);
}

TEST(Calendar, TwentyTicksOfFiftyMillisecondsEqualOneSecond) {
    for (std::uint8_t speed = 0; speed < kSpeedCount; ++speed) {
        SchoolClock ticked = clock_at_speed(speed);
        SchoolClock whole = clock_at_speed(speed);
        for (int tick = 0; tick < 20; ++tick) advance(ticked, kTickUs);
        advance(whole, kOneRealSecondUs);
        EXPECT_EQ(ticked.game_time_ms, whole.game_time_ms) << "speed " << int(speed);
    }
}

TEST(Calendar, OddStepsDoNotDrift) {
    // 33 µs at ×½ is 4.95 game ms: without the carry each step would lose 0.95 ms.
    for (std::uint8_t speed = 0; speed < kSpeedCount; ++speed) {
        SchoolClock stepped = clock_at_speed(speed);
        constexpr int kSteps = 1'000'000;
        constexpr std::int64_t kStepUs = 33;
        for (int i = 0; i < kSteps; ++i) advance(stepped, kStepUs);
        const std::int64_t total_us = kSteps * kStepUs;
        const std::int64_t exact_game_ns = total_us * game_ms_per_real_second(speed);
        EXPECT_EQ(stepped.game_time_ms - kDefaultStartDateMs, exact_game_ns / 1'000'000) << "speed " << int(speed);
        EXPECT_EQ(stepped.carry_game_ns, exact_game_ns % 1'000'000);
    }
}

TEST(Calendar, CarrySurvivesASpeedChange) {
    SchoolClock clock = clock_at_speed(0);
    advance(clock, 3);  // 0.45 game ms at ×½
    EXPECT_EQ(clock.game_time_ms, kDefaultStartDateMs);
    ASSERT_TRUE(set_speed(clock, 1));
    advance(clock, 2);  // 0.6 game ms at ×1, 1.05 in all
    EXPECT_EQ(clock.game_time_ms, kDefaultStartDateMs + 1);
    EXPECT_EQ(clock.carry_game_ns, 50'000);
}

TEST(Calendar, NegativeOrZeroElapsedIsIgnored) {
    SchoolClock clock = make_school_clock(kDefaultStartDateMs);
    advance(clock, 0);
    advance(clock, -kOneRealSecondUs);
    advance(clock, std::numeric_limits<std::int64_t>::min());
    EXPECT_EQ(clock.game_time_ms, kDefaultStartDateMs);
}

TEST(Calendar, HugeElapsedSaturatesInsteadOfOverflowing) {
    SchoolClock clock = clock_at_speed(4);
    advance(clock, std::numeric_limits<std::int64_t>::max());
    EXPECT_EQ(clock.game_time_ms, std::numeric_limits<std::int64_t>::max());
    advance(clock, kOneRealSecondUs);
    EXPECT_EQ(clock.game_time_ms, std::numeric_limits<std::int64_t>::max());
}

TEST(Calendar, InvalidSpeedIndexIsRejectedAndIgnored) {
    EXPECT_TRUE(is_valid_speed_index(0));
    EXPECT_TRUE(is_valid_speed_index(4));
    EXPECT_FALSE(is_valid_speed_index(5));
    EXPECT_FALSE(is_valid_speed_index(-1));
    EXPECT_FALSE(is_valid_speed_index(255));

    SchoolClock clock = clock_at_speed(3);
    EXPECT_FALSE(set_speed(clock, 5));
    EXPECT_FALSE(set_speed(clock, -1));
    EXPECT_EQ(clock.speed_index, 3);
    EXPECT_TRUE(set_speed(clock, 0));
    EXPECT_EQ(clock.speed_index, 0);
}

TEST(Calendar, CorruptSpeedIndexStandsStill) {
    SchoolClock clock = clock_at_speed(9);
    advance(clock, kOneRealSecondUs);
    EXPECT_EQ(clock.game_time_ms, kDefaultStartDateMs);
}

TEST(Calendar, StartDateRangeIs1900To2999) {
    constexpr std::int64_t k1900 = -2208988800000;       // 1900-01-01T00:00:00Z
    constexpr std::int64_t k3000 = 32503680000000;       // 3000-01-01T00:00:00Z
    EXPECT_TRUE(is_valid_start_date(k1900));
    EXPECT_FALSE(is_valid_start_date(k1900 - 1));
    EXPECT_TRUE(is_valid_start_date(k3000 - 1));
    EXPECT_FALSE(is_valid_start_date(k3000));
    EXPECT_TRUE(is_valid_start_date(kDefaultStartDateMs));
    EXPECT_FALSE(is_valid_start_date(std::numeric_limits<std::int64_t>::min()));
    EXPECT_FALSE(is_valid_start_date(std::numeric_limits<std::int64_t>::max()));
}

}  // namespace
}  // namespace hschool::sim
