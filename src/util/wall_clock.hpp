#pragma once
// Wall-clock milliseconds since the Unix epoch: the stamps people and files read (a replay's start,
// a match's or a school's creation). Durations are measured on steady_clock, never with this.
#include <chrono>
#include <cstdint>

namespace hschool::util {

inline std::int64_t unix_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace hschool::util
