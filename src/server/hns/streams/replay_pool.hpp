#pragma once
// The threads that draw every /replay viewer's frames: a few (one per core), at a low priority,
// each taking the viewer whose frame is due first. A thread per viewer meant dozens of runnable
// low-priority threads, so one preempted while holding a lock the matches share (malloc's arena)
// waited behind all the others, and the matches with it.
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <queue>
#include <thread>
#include <vector>

namespace hschool::server::hns {

class ReplayPool {
public:
    using Clock = std::chrono::steady_clock;

    // Something with frames to draw. frame() runs on one pool thread at a time and says when its
    // next frame is due, or nullopt when it has ended.
    class Job {
    public:
        virtual ~Job() = default;
        virtual std::optional<Clock::time_point> frame() = 0;
    };

    explicit ReplayPool(int threads);
    static int one_per_core() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }
    ~ReplayPool();  // stops and joins; jobs not yet run are forgotten
    ReplayPool(const ReplayPool&) = delete;
    ReplayPool& operator=(const ReplayPool&) = delete;

    // From any thread: the job's first frame is due now. Held weakly: a job that is gone is dropped.
    void add(std::weak_ptr<Job> job);

private:
    struct Due {
        Clock::time_point at;
        std::uint64_t order;  // first come, first drawn among frames due at the same instant
        std::weak_ptr<Job> job;
        bool operator>(const Due& other) const { return at != other.at ? at > other.at : order > other.order; }
    };
    void run();
    void schedule(Clock::time_point at, std::weak_ptr<Job> job);

    std::mutex mutex_;
    std::condition_variable wake_;
    std::priority_queue<Due, std::vector<Due>, std::greater<>> due_;
    std::uint64_t next_order_ = 0;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace hschool::server::hns
