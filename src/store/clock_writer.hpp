#pragma once
// Coalesces clock updates per school and hands them to a background thread that commits them
// in one batch at most once per interval, so the game loop never waits on the disk.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "store/school_record.hpp"
#include "store/store_error.hpp"

namespace hschool::store {

using ClockBatch = std::map<std::int32_t, ClockState>;

class ClockWriter {
public:
    // Called on the writer thread with every school's latest queued state; returns why it failed.
    using WriteBatch = std::function<std::optional<StoreError>(const ClockBatch&)>;

    ClockWriter(WriteBatch write_batch, std::chrono::milliseconds commit_interval);
    ~ClockWriter();
    ClockWriter(const ClockWriter&) = delete;
    ClockWriter& operator=(const ClockWriter&) = delete;

    // Replaces any state still queued for the school: a stale clock is worthless once a newer exists.
    void queue(std::int32_t school_id, const ClockState& state);

    // Drops a queued clock of a deleted school (a later write would update nothing anyway).
    void forget(std::int32_t school_id);

    // Writes everything queued before the call now, waits, and reports the outcome.
    std::optional<StoreError> flush();

    // Waits, without hurrying the writer, until everything queued before the call was committed
    // by the periodic background write. False on timeout or if that write failed. For tests.
    bool wait_for_background_commit(std::chrono::milliseconds timeout);

    // The failure of the most recent background write, if it failed.
    std::optional<StoreError> last_error() const;

    // Final flush and join; idempotent. Queued clocks after this are dropped.
    void stop();

private:
    void run();

    const WriteBatch write_batch_;
    const std::chrono::milliseconds commit_interval_;

    mutable std::mutex mutex_;
    std::condition_variable wake_;     // signals the writer: work, flush or stop
    std::condition_variable settled_;  // signals waiters: a batch was attempted
    ClockBatch pending_;
    std::uint64_t queued_generation_ = 0;   // bumped by every queue()
    std::uint64_t settled_generation_ = 0;  // queued_generation_ when the last attempted batch was taken
    std::uint64_t flush_requests_ = 0;
    std::uint64_t flushes_served_ = 0;
    std::optional<StoreError> last_error_;
    std::chrono::steady_clock::time_point last_commit_;
    bool stopping_ = false;
    bool stopped_ = false;

    std::thread thread_;  // last, so it starts after everything above exists
};

}  // namespace hschool::store
