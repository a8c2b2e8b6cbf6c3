// The pool that draws /replay viewers' frames: every job's frames come when due, in due order, on a
// few threads; a job that ends or is gone is never run again.
#include "server/hns/streams/replay_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <mutex>
#include <vector>

namespace hschool::server::hns {
namespace {

using namespace std::chrono_literals;
using Clock = ReplayPool::Clock;
// For what a test caused: a quiet machine needs milliseconds.
constexpr auto kWait = 60s;

// Draws `frames` frames `period` apart, then ends; tells `all_done` when the last one is drawn.
class CountingJob final : public ReplayPool::Job {
public:
    CountingJob(int frames, std::chrono::milliseconds period, std::promise<void>* done) : frames_(frames), period_(period), done_(done) {}
    std::optional<Clock::time_point> frame() override {
        const int n = ++drawn_;
        if (n > 1) {
            EXPECT_GE(Clock::now() - last_, period_) << "frame " << n << " came early";
        }
        last_ = Clock::now();
        if (n == frames_) {
            if (done_) done_->set_value();
            return std::nullopt;
        }
        return last_ + period_;
    }
    int drawn() const { return drawn_.load(); }

private:
    const int frames_;
    const std::chrono::milliseconds period_;
    std::promise<void>* done_;
    std::atomic<int> drawn_{0};
    Clock::time_point last_{};
};

TEST(ReplayPool, ManyJobsOnOneThreadEachGetEveryFrameNoneEarly) {
    constexpr int kJobs = 16, kFrames = 5;
    constexpr auto kPeriod = 5ms;
    ReplayPool pool(1);
    std::vector<std::promise<void>> done(kJobs);
    std::vector<std::shared_ptr<CountingJob>> jobs;
    for (int i = 0; i < kJobs; ++i) {
        jobs.push_back(std::make_shared<CountingJob>(kFrames, kPeriod, &done[static_cast<std::size_t>(i)]));
        pool.add(jobs.back());
    }
    for (auto& d : done) ASSERT_EQ(d.get_future().wait_for(kWait), std::future_status::ready);
    // An ended job must not be asked again. Were one rescheduled, it would be due a period after
    // its last frame, before a later job's second frame due a whole period after its first: on the
    // pool's one thread, in due order, it would run first.
    std::promise<void> later_done;
    auto later = std::make_shared<CountingJob>(2, kPeriod, &later_done);
    pool.add(later);
    ASSERT_EQ(later_done.get_future().wait_for(kWait), std::future_status::ready);
    for (const auto& j : jobs) EXPECT_EQ(j->drawn(), kFrames);
}

TEST(ReplayPool, AJobThatIsGoneIsDroppedNotRun) {
    ReplayPool pool(2);
    std::promise<void> done;
    auto kept = std::make_shared<CountingJob>(3, 2ms, &done);
    auto gone = std::make_shared<CountingJob>(3, 2ms, nullptr);
    std::weak_ptr<CountingJob> watch = gone;
    {
        // Added and released before the pool can take it: the pool held it weakly.
        std::shared_ptr<ReplayPool::Job> job = std::move(gone);
        pool.add(job);
    }
    pool.add(kept);
    ASSERT_EQ(done.get_future().wait_for(kWait), std::future_status::ready);
    EXPECT_EQ(kept->drawn(), 3);
    EXPECT_TRUE(watch.expired());  // nothing in the pool kept it alive
}

TEST(ReplayPool, DrawsTheJobDueFirstFirst) {
    ReplayPool pool(1);
    std::mutex mutex;
    std::vector<int> order;
    std::promise<void> done;
    class Once final : public ReplayPool::Job {
    public:
        Once(int id, std::mutex& m, std::vector<int>& order, std::promise<void>* done) : id_(id), m_(m), order_(order), done_(done) {}
        std::optional<Clock::time_point> frame() override {
            std::lock_guard lock(m_);
            order_.push_back(id_);
            if (order_.size() == 3 && done_) done_->set_value();
            return std::nullopt;
        }
    private:
        int id_;
        std::mutex& m_;
        std::vector<int>& order_;
        std::promise<void>* done_;
    };
    // A job that holds the only thread until the test lets it go, so the three below queue up
    // behind it in the order they were added; the pool draws them in that order (all are due now).
    class Blocker final : public ReplayPool::Job {
    public:
        std::optional<Clock::time_point> frame() override {
            running.set_value();
            release.get_future().wait();
            return std::nullopt;
        }
        std::promise<void> running, release;
    };
    auto blocker = std::make_shared<Blocker>();
    auto running = blocker->running.get_future();
    pool.add(blocker);
    ASSERT_EQ(running.wait_for(kWait), std::future_status::ready);
    std::vector<std::shared_ptr<Once>> jobs;
    for (int i = 0; i < 3; ++i) {
        jobs.push_back(std::make_shared<Once>(i, mutex, order, i == 2 ? &done : nullptr));
        pool.add(jobs.back());
    }
    blocker->release.set_value();
    ASSERT_EQ(done.get_future().wait_for(kWait), std::future_status::ready);
    std::lock_guard lock(mutex);
    EXPECT_EQ(order, (std::vector<int>{0, 1, 2}));
}

TEST(ReplayPool, StopsWithJobsStillQueued) {
    auto job = std::make_shared<CountingJob>(1000, std::chrono::hours(1), nullptr);
    {
        ReplayPool pool(2);
        pool.add(job);
        // Its first frame drawn, its second queued an hour away.
        const auto until = Clock::now() + kWait;
        while (job->drawn() < 1 && Clock::now() < until) std::this_thread::sleep_for(1ms);
        ASSERT_EQ(job->drawn(), 1);
    }  // the destructor returns although the job has 999 frames to go
    EXPECT_EQ(job->drawn(), 1);
}

}  // namespace
}  // namespace hschool::server::hns
