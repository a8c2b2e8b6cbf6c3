#include "work_pool.hpp"

namespace hschool::tools::hns {

WorkPool::WorkPool(int threads) {
    for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { work_loop(); });
}

WorkPool::~WorkPool() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
}

void WorkPool::run(std::size_t n, const std::function<void(std::size_t)>& job) {
    if (n == 0) return;
    {
        std::lock_guard lock(mutex_);
        job_ = &job;
        next_ = 0;
        total_ = n;
        finished_ = 0;
        ++generation_;
    }
    wake_.notify_all();
    drain();
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return finished_ == total_; });
    job_ = nullptr;
}

// Takes indices until none is left; the last one done wakes run().
void WorkPool::drain() {
    std::unique_lock lock(mutex_);
    while (job_ != nullptr && next_ < total_) {
        const std::size_t i = next_++;
        const auto* job = job_;
        lock.unlock();
        (*job)(i);
        lock.lock();
        if (++finished_ == total_) done_.notify_all();
    }
}

void WorkPool::work_loop() {
    std::size_t seen = 0;
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
            if (stopping_) return;
            seen = generation_;
        }
        drain();
    }
}

}  // namespace hschool::tools::hns
