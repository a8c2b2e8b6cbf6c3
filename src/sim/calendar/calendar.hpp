#pragma once
// A school's in-game clock: pure integer arithmetic, real time is passed in by the caller.
#include <cstdint>

#include "protocol/v4.hpp"

namespace hschool::sim {

inline constexpr std::int64_t kGameMinutesPerRealSecond = 5;
inline constexpr int kSpeedCount = protocol::v4::kSpeedCount;  // the wire defines the speeds
inline constexpr std::uint8_t kDefaultSpeedIndex = 1;
// 2012-04-03T06:00:00Z, the date a new school starts on unless the player picks another.
inline constexpr std::int64_t kDefaultStartDateMs = 1333432800000;
// Start dates a player may choose (spec: "outside 1900–2999" is invalid-start-date).
inline constexpr int kMinStartYear = 1900;
inline constexpr int kMaxStartYear = 2999;

// One school's calendar. The sub-millisecond carry keeps odd step sizes from drifting.
struct SchoolClock {
    std::int64_t game_time_ms = kDefaultStartDateMs;
    bool running = true;
    std::uint8_t speed_index = kDefaultSpeedIndex;
    std::int64_t carry_game_ns = 0;  // game time advanced but not yet a whole millisecond, [0, 1e6)
};

// A new school runs from the moment it is created, at the default speed.
SchoolClock make_school_clock(std::int64_t start_date_ms);

bool is_valid_speed_index(int speed_index);

// Game milliseconds per real second at a speed: ×½ → 150000, ×1 → 300000, … ×4 → 1200000.
// Zero for an invalid index, so a corrupt clock stands still instead of racing.
std::int64_t game_ms_per_real_second(std::uint8_t speed_index);

// Moves a running clock forward by real elapsed microseconds; negative or zero elapsed is a no-op.
// Saturates at the largest representable time instead of overflowing.
void advance(SchoolClock& clock, std::int64_t real_elapsed_us);

// Applies a SetSpeed request; out-of-range indexes are ignored (spec) and reported as false.
bool set_speed(SchoolClock& clock, int speed_index);

void set_running(SchoolClock& clock, bool running);

// True when ms lies in [kMinStartYear-01-01T00:00:00Z, (kMaxStartYear+1)-01-01T00:00:00Z).
bool is_valid_start_date(std::int64_t ms_since_epoch);

}  // namespace hschool::sim
