#include "sim/calendar/calendar.hpp"

#include <array>
#include <limits>

#include <date/date.h>

namespace hschool::sim {
namespace {

constexpr std::int64_t kMsPerMinute = 60'000;
constexpr std::int64_t kMicrosPerSecond = 1'000'000;
// One game millisecond expressed in the carry's unit (real µs × game ms per real s = game ns).
constexpr std::int64_t kCarryUnitsPerGameMs = 1'000'000;
// Speed multipliers in halves, so ×½ stays an integer: ×½, ×1, ×2, ×3, ×4.
constexpr std::array<std::int64_t, kSpeedCount> kSpeedHalves = {1, 2, 4, 6, 8};
constexpr std::int64_t kGameMsPerRealSecondAtHalf = kGameMinutesPerRealSecond * kMsPerMinute / 2;

constexpr std::int64_t kMaxTimeMs = std::numeric_limits<std::int64_t>::max();

std::int64_t year_start_ms(int year) {
    const date::sys_days day{date::year{year} / date::January / 1};
    return std::chrono::duration_cast<std::chrono::milliseconds>(day.time_since_epoch()).count();
}

}  // namespace

SchoolClock make_school_clock(std::int64_t start_date_ms) {
    return SchoolClock{start_date_ms, true, kDefaultSpeedIndex, 0};
}

bool is_valid_speed_index(int speed_index) {
    return speed_index >= 0 && speed_index < kSpeedCount;
}

std::int64_t game_ms_per_real_second(std::uint8_t speed_index) {
    if (!is_valid_speed_index(speed_index)) return 0;
    return kGameMsPerRealSecondAtHalf * kSpeedHalves[speed_index];
}

void advance(SchoolClock& clock, std::int64_t real_elapsed_us) {
    if (!clock.running || real_elapsed_us <= 0) return;
    const std::int64_t rate = game_ms_per_real_second(clock.speed_index);
    if (rate == 0) return;

    // Whole seconds and the remainder separately, so no product can overflow for the fraction.
    const std::int64_t whole_seconds = real_elapsed_us / kMicrosPerSecond;
    const std::int64_t rest_us = real_elapsed_us % kMicrosPerSecond;
    const std::int64_t carried = rest_us * rate + clock.carry_game_ns;
    clock.carry_game_ns = carried % kCarryUnitsPerGameMs;

    std::int64_t delta_ms = 0;
    if (__builtin_mul_overflow(whole_seconds, rate, &delta_ms) ||
        __builtin_add_overflow(delta_ms, carried / kCarryUnitsPerGameMs, &delta_ms) ||
        __builtin_add_overflow(clock.game_time_ms, delta_ms, &clock.game_time_ms)) {
        clock.game_time_ms = kMaxTimeMs;
        clock.carry_game_ns = 0;
    }
}

bool set_speed(SchoolClock& clock, int speed_index) {
    if (!is_valid_speed_index(speed_index)) return false;
    clock.speed_index = static_cast<std::uint8_t>(speed_index);
    return true;
}

void set_running(SchoolClock& clock, bool running) {
    clock.running = running;
}

bool is_valid_start_date(std::int64_t ms_since_epoch) {
    static const std::int64_t first_ms = year_start_ms(kMinStartYear);
    static const std::int64_t end_ms = year_start_ms(kMaxStartYear + 1);
    return ms_since_epoch >= first_ms && ms_since_epoch < end_ms;
}

}  // namespace hschool::sim
