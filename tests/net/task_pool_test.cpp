// The pool the live matches share, and the replay viewers theirs (issue 42 point 3): each task's
// passes come when due and never two at once, the task due first runs first, a wake runs a waiting
// task's pass now (or again right after a running one), a task that ends leaves the pool, and many
// tasks on two threads all run.
#include "net/task_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <mutex>
#include <vector>

#include "wait.hpp"

namespace hschool::net::task_pool_test {
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

TEST(TaskPool, PassesComeWhenDueAndATaskThatEndsLeavesThePool) {
    ThreadLauncher launcher;
    TaskPool pool(2, 0, "test-pool", launcher);
    auto task = std::make_shared<CountingTask>(5, 10ms);
    pool.add(task);
    ASSERT_TRUE(eventually([&] { return task->runs_ == 5; })) << task->runs_;
    EXPECT_FALSE(task->early_) << "a pass ran before its due time";
    pool.wake(*task);  // done: a wake runs nothing more
    EXPECT_TRUE(eventually([&] { return task.use_count() == 1; })) << "the pool let go of the task that ended";
    EXPECT_EQ(task->runs_, 5);
}

TEST(TaskPool, AWakeRunsAWaitingTasksPassNow) {
    ThreadLauncher launcher;
    TaskPool pool(1, 0, "test-pool", launcher);
    auto task = std::make_shared<CountingTask>(3, std::chrono::hours(1));  // its next pass is an hour away
    pool.add(task);
    ASSERT_TRUE(eventually([&] { return task->runs_ == 1; }));
    pool.wake(*task);
    ASSERT_TRUE(eventually([&] { return task->runs_ == 2; })) << "the wake did not run the pass due in an hour";
}

TEST(TaskPool, AWakeWhileATaskRunsRunsItAgainRightAfterAndNeverTwoAtOnce) {
    ThreadLauncher launcher;
    TaskPool pool(2, 0, "test-pool", launcher);
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

TEST(TaskPool, ManyTasksOnTwoThreadsAllRunEveryPass) {
    ThreadLauncher launcher;
    TaskPool pool(2, 0, "test-pool", launcher);
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

TEST(TaskPool, TheTaskDueFirstRunsFirst) {
    ThreadLauncher launcher;
    TaskPool pool(1, 0, "test-pool", launcher);
    std::mutex mutex;
    std::vector<int> order;
    // One pass each, recording its turn.
    class Once final : public PoolTask {
    public:
        Once(int id, std::mutex& m, std::vector<int>& order) : id_(id), m_(m), order_(order) {}
        std::optional<Clock::time_point> run_pass() override {
            std::lock_guard lock(m_);
            order_.push_back(id_);
            return std::nullopt;
        }
    private:
        int id_;
        std::mutex& m_;
        std::vector<int>& order_;
    };
    // Holds the only thread until the test lets it go, so the three below queue up behind it, due
    // in the order they were added.
    auto blocker = std::make_shared<CountingTask>(1, 1ms);
    blocker->hold_first_pass_ = true;
    auto started = blocker->started_.get_future();
    pool.add(blocker);
    ASSERT_EQ(started.wait_for(kWait), std::future_status::ready);
    std::vector<std::shared_ptr<Once>> tasks;
    for (int i = 0; i < 3; ++i) {
        tasks.push_back(std::make_shared<Once>(i, mutex, order));
        pool.add(tasks.back());
    }
    blocker->release_.set_value();
    ASSERT_TRUE(eventually([&] {
        std::lock_guard lock(mutex);
        return order.size() == 3;
    }));
    std::lock_guard lock(mutex);
    EXPECT_EQ(order, (std::vector<int>{0, 1, 2}));
}

TEST(TaskPool, APoolStoppedWithTasksWaitingLetsThemGo) {
    auto task = std::make_shared<CountingTask>(3, std::chrono::hours(1));
    {
        ThreadLauncher launcher;
        TaskPool pool(2, 0, "test-pool", launcher);
        pool.add(task);
        ASSERT_TRUE(eventually([&] { return task->runs_ == 1; }));
    }
    EXPECT_EQ(task.use_count(), 1) << "the stopped pool still holds its waiting task";
}

}  // namespace
}  // namespace hschool::net::task_pool_test
