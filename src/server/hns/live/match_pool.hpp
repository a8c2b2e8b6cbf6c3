#pragma once
// Live matches as tasks on a few threads (issue 42 point 3): a thread per match cost a futex wake
// and a context switch for each of its 24 frames a second (a fifth of the server's CPU at 200
// matches). A match's pass runs on one worker at a time; between passes it waits in the pool's
// queue for its time or for a wake (a socket's event, a stop), and costs no thread.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <queue>
#include <string>
#include <thread>
#include <vector>

#include "net/thread_role.hpp"

namespace hschool::server::hns {

class MatchPool;

// What a pool runs. run_pass() does one pass and says when the next is due; nullopt: the task is
// done and leaves the pool. A wake (any thread) runs the next pass now instead.
class PoolTask {
public:
    using Clock = std::chrono::steady_clock;
    virtual ~PoolTask() = default;
    virtual std::optional<Clock::time_point> run_pass() = 0;

private:
    friend class MatchPool;
    enum class State { Outside, Waiting, Running, Done };
    // The pool's mutex guards these.
    State state_ = State::Outside;
    bool woken_while_running_ = false;
    std::uint64_t generation_ = 0;  // the queue entry that is current; older ones are skipped
    Clock::time_point due_{};       // the current entry's
    std::weak_ptr<PoolTask> self_;  // while in the pool, which holds it strongly in its queue
};

class MatchPool {
public:
    // `threads` workers (at least one) named hns-pool-N at `nice`, started by `launcher`.
    MatchPool(std::size_t threads, int nice, net::ThreadLauncher& launcher);
    ~MatchPool();  // stops the workers; tasks still queued are dropped (their owners stop them first)
    MatchPool(const MatchPool&) = delete;
    MatchPool& operator=(const MatchPool&) = delete;

    // Its first pass runs as soon as a worker is free. A task is added once.
    void add(std::shared_ptr<PoolTask> task);
    // From any thread: a waiting task's next pass runs now; a running one runs again right after.
    void wake(PoolTask& task);
    std::size_t threads() const { return workers_.size(); }

private:
    struct Entry {
        PoolTask::Clock::time_point due;
        std::uint64_t generation;
        std::shared_ptr<PoolTask> task;
        bool operator>(const Entry& other) const { return due > other.due; }
    };
    void work();
    void queue_locked(std::shared_ptr<PoolTask> task, PoolTask::Clock::time_point due, bool notify);
    // Pops superseded entries into `released`; true when an entry is left.
    bool drop_stale_locked(std::vector<std::shared_ptr<PoolTask>>& released);

    std::mutex mutex_;  // guards the queue, what follows and every task's pool state
    std::condition_variable wake_;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue_;  // earliest due first
    // One idle worker sleeps until the earliest due time; the others sleep until woken, so a pass
    // wakes no thread that has nothing to do.
    PoolTask::Clock::time_point watched_ = PoolTask::Clock::time_point::max();
    bool stopping_ = false;
    int nice_;
    std::vector<std::thread> workers_;
};

}  // namespace hschool::server::hns
