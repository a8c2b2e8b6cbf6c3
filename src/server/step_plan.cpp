#include "server/step_plan.hpp"

namespace hschool::server {

StepPlan plan_steps(std::chrono::steady_clock::time_point deadline, std::chrono::steady_clock::time_point now,
                    std::chrono::nanoseconds period, int max_catch_up_steps) {
    StepPlan plan;
    const auto due = now < deadline ? 1 : static_cast<std::int64_t>((now - deadline) / period) + 1;
    if (due > max_catch_up_steps) {
        plan.steps = max_catch_up_steps;
        plan.dropped = due - max_catch_up_steps;
        plan.next_deadline = now + period;  // the backlog is forgotten, not simulated in a burst
    } else {
        plan.steps = static_cast<int>(due);
        plan.next_deadline = deadline + period * due;
    }
    return plan;
}

}  // namespace hschool::server
