// The store thread: jobs run one at a time in submission order, the queue has a bound, and
// stopping answers every job that did not run.
#include "store/store_worker.hpp"

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace hschool::store {
namespace {

constexpr auto kWorkerTimeout = std::chrono::seconds{30};

// Holds the worker inside a job until released, so tests can fill the queue behind it.
struct Gate {
    std::promise<void> entered;
    std::promise<void> release;
    StoreWorker::Job job() {
        return {[this] {
                    entered.set_value();
                    release.get_future().wait();
                },
                {}};
    }
};

TEST(StoreWorker, RunsJobsOneAtATimeInSubmissionOrderOnOneThread) {
    StoreWorker worker;
    std::mutex mutex;
    std::vector<int> order;
    std::vector<std::thread::id> threads;
    std::promise<void> done;
    constexpr int kJobs = 20;  // below the bound: nothing is refused
    for (int i = 0; i < kJobs; ++i) {
        const auto queued = worker.submit({[&, i] {
                                               const std::lock_guard lock(mutex);
                                               order.push_back(i);
                                               threads.push_back(std::this_thread::get_id());
                                               if (i == kJobs - 1) done.set_value();
                                           },
                                           {}});
        ASSERT_EQ(queued, StoreWorker::Submitted::Queued);
    }
    ASSERT_EQ(done.get_future().wait_for(kWorkerTimeout), std::future_status::ready);
    const std::lock_guard lock(mutex);
    ASSERT_EQ(order.size(), static_cast<std::size_t>(kJobs));
    for (int i = 0; i < kJobs; ++i) EXPECT_EQ(order[static_cast<std::size_t>(i)], i);
    for (const auto& id : threads) {
        EXPECT_EQ(id, threads.front());
        EXPECT_NE(id, std::this_thread::get_id());
    }
}

TEST(StoreWorker, AFullQueueRefusesWithoutRunningOrCancelling) {
    constexpr std::size_t kBound = 3;
    StoreWorker worker(kBound);
    Gate gate;
    ASSERT_EQ(worker.submit(gate.job()), StoreWorker::Submitted::Queued);
    ASSERT_EQ(gate.entered.get_future().wait_for(kWorkerTimeout), std::future_status::ready);  // running, not queued

    std::atomic<int> ran{0};
    for (std::size_t i = 0; i < kBound; ++i) {
        EXPECT_EQ(worker.submit({[&] { ++ran; }, {}}), StoreWorker::Submitted::Queued) << i;
    }
    bool refused_touched = false;
    EXPECT_EQ(worker.submit({[&] { refused_touched = true; }, [&] { refused_touched = true; }}),
              StoreWorker::Submitted::Full);

    gate.release.set_value();
    std::promise<void> drained;
    // Room again once the worker moves on: the bound is on waiting jobs, not a lifetime total.
    const auto deadline = std::chrono::steady_clock::now() + kWorkerTimeout;
    while (worker.submit({[&] { drained.set_value(); }, {}}) != StoreWorker::Submitted::Queued) {
        ASSERT_LT(std::chrono::steady_clock::now(), deadline);
        std::this_thread::yield();
    }
    ASSERT_EQ(drained.get_future().wait_for(kWorkerTimeout), std::future_status::ready);
    EXPECT_EQ(ran.load(), static_cast<int>(kBound));
    EXPECT_FALSE(refused_touched);
}

TEST(StoreWorker, StopFinishesTheRunningJobAndCancelsTheQueuedOnesInOrder) {
    StoreWorker worker;
    Gate gate;
    std::atomic<bool> running_finished{false};
    ASSERT_EQ(worker.submit({[&] {
                                 gate.entered.set_value();
                                 gate.release.get_future().wait();
                                 running_finished = true;
                             },
                             {}}),
              StoreWorker::Submitted::Queued);
    ASSERT_EQ(gate.entered.get_future().wait_for(kWorkerTimeout), std::future_status::ready);

    std::mutex mutex;
    std::vector<int> cancelled;
    std::atomic<int> ran{0};
    for (int i = 0; i < 3; ++i) {
        ASSERT_EQ(worker.submit({[&] { ++ran; },
                                 [&, i] {
                                     const std::lock_guard lock(mutex);
                                     cancelled.push_back(i);
                                 }}),
                  StoreWorker::Submitted::Queued);
    }
    std::thread stopper([&] { worker.stop(); });
    // stop() waits for the running job: release it only once the stop was asked for.
    while (worker.submit({[] {}, {}}) != StoreWorker::Submitted::Stopped) std::this_thread::yield();
    gate.release.set_value();
    stopper.join();

    EXPECT_TRUE(running_finished);
    EXPECT_EQ(ran.load(), 0);
    EXPECT_EQ(cancelled, (std::vector<int>{0, 1, 2}));
    bool late_touched = false;
    EXPECT_EQ(worker.submit({[&] { late_touched = true; }, [&] { late_touched = true; }}), StoreWorker::Submitted::Stopped);
    worker.stop();  // idempotent
    EXPECT_FALSE(late_touched);
}

}  // namespace
}  // namespace hschool::store
