#include "store/clock_writer.hpp"

#include <utility>

#include "util/stop_thread.hpp"

namespace hschool::store {

ClockWriter::ClockWriter(WriteBatch write_batch, std::chrono::milliseconds commit_interval)
    : write_batch_(std::move(write_batch)),
      commit_interval_(commit_interval),
      last_commit_(std::chrono::steady_clock::now()),
      thread_([this] { run(); }) {}

ClockWriter::~ClockWriter() {
    stop();
}

void ClockWriter::queue(std::int32_t school_id, const ClockState& state) {
    {
        const std::lock_guard lock(mutex_);
        if (stopping_) return;
        auto& pending = pending_[school_id];
        const bool control = pending.control || state.control;  // a newer tick must not hide a pause
        pending = state;
        pending.control = control;
        ++queued_generation_;
    }
    wake_.notify_one();
}

void ClockWriter::forget(std::int32_t school_id) {
    const std::lock_guard lock(mutex_);
    pending_.erase(school_id);
}

std::optional<StoreError> ClockWriter::flush() {
    std::unique_lock lock(mutex_);
    if (stopped_) return last_error_;
    const std::uint64_t request = ++flush_requests_;
    wake_.notify_one();
    settled_.wait(lock, [&] { return flushes_served_ >= request || stopped_; });
    return last_error_;
}

bool ClockWriter::wait_for_background_commit(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    const std::uint64_t target = queued_generation_;
    const bool settled = settled_.wait_for(lock, timeout, [&] { return settled_generation_ >= target; });
    return settled && !last_error_;
}

std::optional<StoreError> ClockWriter::last_error() const {
    const std::lock_guard lock(mutex_);
    return last_error_;
}

void ClockWriter::stop() { util::stop_thread(mutex_, wake_, stopping_, thread_); }

void ClockWriter::run() {
    std::unique_lock lock(mutex_);
    while (true) {
        const auto hurried = [&] { return stopping_ || flush_requests_ > flushes_served_; };
        wake_.wait(lock, [&] { return hurried() || !pending_.empty(); });
        // Give later ticks until the end of the interval a chance to replace what is queued.
        if (!hurried()) wake_.wait_until(lock, last_commit_ + commit_interval_, hurried);

        ClockBatch batch = std::exchange(pending_, {});
        const std::uint64_t generation = queued_generation_;
        const std::uint64_t serving = flush_requests_;
        lock.unlock();
        std::optional<StoreError> error = batch.empty() ? std::nullopt : write_batch_(batch);
        lock.lock();

        last_commit_ = std::chrono::steady_clock::now();
        if (error) {
            // Retry next interval; anything queued meanwhile is newer and wins.
            for (const auto& [school_id, state] : batch) {
                const auto [it, fresh] = pending_.try_emplace(school_id, state);
                if (!fresh) it->second.control = it->second.control || state.control;
            }
        }
        last_error_ = std::move(error);
        settled_generation_ = generation;
        flushes_served_ = serving;
        if (stopping_ && flush_requests_ == flushes_served_) {
            stopped_ = true;
            settled_.notify_all();
            return;
        }
        settled_.notify_all();
    }
}

}  // namespace hschool::store
