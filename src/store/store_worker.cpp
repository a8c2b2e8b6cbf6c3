#include "store/store_worker.hpp"

#include <utility>

#include "util/stop_thread.hpp"

namespace hschool::store {

StoreWorker::StoreWorker(std::size_t max_queued) : max_queued_(max_queued), thread_([this] { run(); }) {}

StoreWorker::~StoreWorker() { stop(); }

StoreWorker::Submitted StoreWorker::submit(Job job) {
    {
        const std::lock_guard lock(mutex_);
        if (stopping_) return Submitted::Stopped;
        if (jobs_.size() >= max_queued_) return Submitted::Full;
        jobs_.push_back(std::move(job));
    }
    wake_.notify_one();
    return Submitted::Queued;
}

void StoreWorker::stop() { util::stop_thread(mutex_, wake_, stopping_, thread_); }

void StoreWorker::run() {
    std::unique_lock lock(mutex_);
    while (true) {
        wake_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
        if (stopping_) break;
        Job job = std::move(jobs_.front());
        jobs_.pop_front();
        lock.unlock();
        job.run();
        job = {};  // release what the job holds before waiting for the next
        lock.lock();
    }
    // Every queued job gets an answer: cancelled in order, on this thread, never silently dropped.
    std::deque<Job> left = std::exchange(jobs_, {});
    lock.unlock();
    for (auto& job : left) {
        if (job.cancel) job.cancel();
    }
}

}  // namespace hschool::store
