#include "server/hns/streams/replay_pool.hpp"

#include <algorithm>

#include "server/hns/contract/limits.hpp"
#include "net/thread_role.hpp"

namespace hschool::server::hns {

ReplayPool::ReplayPool(int threads) {
    for (int i = 0; i < std::max(1, threads); ++i) threads_.emplace_back([this] { run(); });
}

ReplayPool::~ReplayPool() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
}

void ReplayPool::add(std::weak_ptr<Job> job) { schedule(Clock::now(), std::move(job)); }

void ReplayPool::schedule(Clock::time_point at, std::weak_ptr<Job> job) {
    {
        std::lock_guard lock(mutex_);
        if (stopping_) return;
        due_.push(Due{at, next_order_++, std::move(job)});
    }
    wake_.notify_one();
}

void ReplayPool::run() {
    // A replay is a luxury beside live matches: under load its frames wait, not theirs.
    net::take_thread_role("hns-replay", kReplayViewerNice);
    std::unique_lock lock(mutex_);
    for (;;) {
        if (stopping_) return;
        if (due_.empty()) {
            wake_.wait(lock);
            continue;
        }
        if (const auto at = due_.top().at; at > Clock::now()) {
            wake_.wait_until(lock, at);  // an earlier job may come meanwhile: look again
            continue;
        }
        std::weak_ptr<Job> weak = due_.top().job;
        due_.pop();
        lock.unlock();
        if (auto job = weak.lock()) {
            if (const auto next = job->frame()) schedule(*next, std::move(weak));
        }
        lock.lock();
    }
}

}  // namespace hschool::server::hns
