// The loop's catch-up rule: at most five steps after a stall, a longer backlog is dropped.
#include <gtest/gtest.h>

#include "server/limits.hpp"
#include "server/game_loop.hpp"

namespace hschool::server {
namespace {

using namespace std::chrono_literals;
using TimePoint = std::chrono::steady_clock::time_point;

constexpr std::chrono::nanoseconds kPeriod = 50ms;
const TimePoint kDeadline{std::chrono::seconds(100)};

TEST(StepPlan, OnTimeIsOneStepAndTheNextDeadlineIsOnePeriodLater) {
    const auto plan = plan_steps(kDeadline, kDeadline + 3ms, kPeriod, kMaxCatchUpSteps);
    EXPECT_EQ(plan.steps, 1);
    EXPECT_EQ(plan.dropped, 0);
    EXPECT_EQ(plan.next_deadline, kDeadline + kPeriod);  // fixed step: lateness does not shift the grid
}

TEST(StepPlan, AShortStallIsCaughtUpStepByStep) {
    const auto plan = plan_steps(kDeadline, kDeadline + 3 * kPeriod + 1ms, kPeriod, kMaxCatchUpSteps);
    EXPECT_EQ(plan.steps, 4);
    EXPECT_EQ(plan.dropped, 0);
    EXPECT_EQ(plan.next_deadline, kDeadline + 4 * kPeriod);
}

TEST(StepPlan, CatchUpStopsAtFiveSteps) {
    const auto plan = plan_steps(kDeadline, kDeadline + 4 * kPeriod, kPeriod, kMaxCatchUpSteps);
    EXPECT_EQ(plan.steps, 5);
    EXPECT_EQ(plan.dropped, 0);
}

TEST(StepPlan, ALongerBacklogIsDroppedAndTheGridRestartsFromNow) {
    const auto now = kDeadline + 2s;  // 41 steps due at 20 Hz
    const auto plan = plan_steps(kDeadline, now, kPeriod, kMaxCatchUpSteps);
    EXPECT_EQ(plan.steps, 5);
    EXPECT_EQ(plan.dropped, 36);
    EXPECT_EQ(plan.next_deadline, now + kPeriod);
}

}  // namespace
}  // namespace hschool::server
