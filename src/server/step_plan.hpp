#pragma once
// How many fixed steps a loop wake-up runs: pure arithmetic on deadlines, so it is testable
// without a clock.
#include <chrono>
#include <cstdint>

namespace hschool::server {

struct StepPlan {
    int steps = 0;                      // steps to simulate now (at least 1, at most the catch-up limit)
    std::int64_t dropped = 0;           // steps skipped because the stall was too long
    std::chrono::steady_clock::time_point next_deadline;
};

// `deadline` is the wake-up that was due; `now` is when the loop actually woke (now >= deadline).
StepPlan plan_steps(std::chrono::steady_clock::time_point deadline, std::chrono::steady_clock::time_point now,
                    std::chrono::nanoseconds period, int max_catch_up_steps);

}  // namespace hschool::server
