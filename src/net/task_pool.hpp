#pragma once
// Tasks that run in passes, on a few threads (issue 42 point 3): the live matches share one pool,
// the /replay viewers another at a lower priority. A thread per match cost a futex wake and a
// context switch for each of its 24 frames a second (a fifth of the server's CPU at 200 matches),
// and a thread per viewer meant dozens of runnable low-priority threads, one of which, preempted
// holding a lock the matches share (malloc's arena), held them up. A task's pass runs on one worker
// at a time; between passes it waits in the queue for its time or for a wake, and costs no thread.
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

namespace hschool::net {

class TaskPool;

// What a pool runs. run_pass() does one pass and says when the next is due; nullopt: the task is
// done and leaves the pool. A wake (any thread) runs the next pass now instead.
class PoolTask {
public:
    using Clock = std::chrono::steady_clock;
    virtual ~PoolTask() = default;
    virtual std::optional<Clock::time_point> run_pass() = 0;

private:
    friend class TaskPool;
    enum class State { Outside, Waiting, Running, Done };
    // The pool's mutex guards these.
    State state_ = State::Outside;
    bool woken_while_running_ = false;
    std::uint64_t generation_ = 0;  // the queue entry that is current; older ones are skipped
    Clock::time_point due_{};       // the current entry's
    std::weak_ptr<PoolTask> self_;  // while in the pool, which holds it strongly in its queue
};

class TaskPool {
public:
    // `threads` workers (at least one) named `name`-N at `nice`, started by `launcher`.
    TaskPool(std::size_t threads, int nice, std::string name, ThreadLauncher& launcher);
    static std::size_t one_per_core();
    ~TaskPool();  // stops the workers; tasks still queued are dropped (their owners stop them first)
    TaskPool(const TaskPool&) = delete;
    TaskPool& operator=(const TaskPool&) = delete;

    // Its first pass runs as soon as a worker is free; the pool holds it until a pass says it is
    // done (an owner that lets go of it first wakes it to say so). A task is added once.
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
    const int nice_;
    const std::string name_;
    std::vector<std::thread> workers_;
};

}  // namespace hschool::net
