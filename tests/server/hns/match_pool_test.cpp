// The pool the live matches share (issue 42 point 3): each task's passes come when due and never
// two at once, a wake runs a waiting task's pass now (or again right after a running one), a task
// that ends leaves the pool, and many tasks on two threads all run.
#include "server/hns/live/match_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <vector>

#include "wait.hpp"

namespace hschool::server::hns::match_pool_test {
namespace {

using namespace std::chrono_literals;
using Clock = PoolTask::Clock;
using test::eventually;
using test::kWait;

// Runs `passes` passes `period` apart, then ends; counts its passes and how many ran at once.
class CountingTask final : public PoolTask {
public:
    CountingTask(int passes, std::chrono::milliseconds period) : passes_(passes), period_(period) {}

    std::optional<Clock::time_point> run_pass() override {
        const int inside = ++inside_;
        if (inside > most_inside_) most_inside_ = inside;
        const auto now = Clock::now();
        if (runs_ > 0 && now < next_) early_ = true;
        if (hold_first_pass_ && runs_ == 0) {
            started_.set_value();
            release_.get_future().wait();
        }
        const int run = ++runs_;
        --inside_;
        if (run >= passes_) return std::nullopt;
        next_ = now + period_;
        return next_;
    }

    std::atomic<int> runs_{0};
    std::atomic<int> inside_{0};
    std::atomic<int> most_inside_{0};
    std::atomic<bool> early_{false};
    bool hold_first_pass_ = false;
    std::promise<void> started_;
    std::promise<void> release_;

private:
    const int passes_;
    const std::chrono::milliseconds period_;
    Clock::time_point next_{};
};

TEST(MatchPool, PassesComeWhenDueAndATaskThatEndsLeavesThePool) {
    net::ThreadLauncher launcher;
    MatchPool pool(2, 0, launcher);
    auto task = std::make_shared<CountingTask>(5, 10ms);
    pool.add(task);
    ASSERT_TRUE(eventually([&] { return task->runs_ == 5; })) << task->runs_;
    EXPECT_FALSE(task->early_) << "a pass ran before its due time";
    pool.wake(*task);  // done: a wake runs nothing more
    EXPECT_TRUE(eventually([&] { return task.use_count() == 1; })) << "the pool let go of the task that ended";
    EXPECT_EQ(task->runs_, 5);
}

TEST(MatchPool, AWakeRunsAWaitingTasksPassNow) {
    net::ThreadLauncher launcher;
    MatchPool pool(1, 0, launcher);
    auto task = std::make_shared<CountingTask>(3, std::chrono::hours(1));  // its next pass is an hour away
    pool.add(task);
    ASSERT_TRUE(eventually([&] { return task->runs_ == 1; }));
    pool.wake(*task);
    ASSERT_TRUE(eventually([&] { return task->runs_ == 2; })) << "the wake did not run the pass due in an hour";
}

TEST(MatchPool, AWakeWhileATaskRunsRunsItAgainRightAfterAndNeverTwoAtOnce) {
    net::ThreadLauncher launcher;
    MatchPool pool(2, 0, launcher);
    auto task = std::make_shared<CountingTask>(3, std::chrono::hours(1));
    task->hold_first_pass_ = true;
    auto started = task->started_.get_future();
    pool.add(task);
    ASSERT_EQ(started.wait_for(kWait), std::future_status::ready);
    for (int i = 0; i < 10; ++i) pool.wake(*task);  // while its first pass runs, with a second thread free
    task->release_.set_value();
    ASSERT_TRUE(eventually([&] { return task->runs_ == 2; })) << "the wake while running was lost";
    EXPECT_EQ(task->most_inside_, 1) << "two threads ran the same task at once";
}

TEST(MatchPool, ManyTasksOnTwoThreadsAllRunEveryPass) {
    net::ThreadLauncher launcher;
    MatchPool pool(2, 0, launcher);
    std::vector<std::shared_ptr<CountingTask>> tasks;
    for (int i = 0; i < 64; ++i) tasks.push_back(std::make_shared<CountingTask>(10, 3ms));
    for (auto& task : tasks) pool.add(task);
    ASSERT_TRUE(eventually([&] {
        for (auto& task : tasks)
            if (task->runs_ < 10) return false;
        return true;
    }));
    for (auto& task : tasks) {
        EXPECT_EQ(task->runs_, 10);
        EXPECT_EQ(task->most_inside_, 1);
        EXPECT_FALSE(task->early_);
    }
}

TEST(MatchPool, APoolStoppedWithTasksWaitingLetsThemGo) {
    auto task = std::make_shared<CountingTask>(3, std::chrono::hours(1));
    {
        net::ThreadLauncher launcher;
        MatchPool pool(2, 0, launcher);
        pool.add(task);
        ASSERT_TRUE(eventually([&] { return task->runs_ == 1; }));
    }
    EXPECT_EQ(task.use_count(), 1) << "the stopped pool still holds its waiting task";
}

}  // namespace
}  // namespace hschool::server::hns::match_pool_test
