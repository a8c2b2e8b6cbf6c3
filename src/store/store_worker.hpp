#pragma once
// One thread that runs the store's slow, durable work (creating and deleting schools) in FIFO
// order, so no network thread ever waits on fsync or on a file another process has locked.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace hschool::store {

// Menu clicks queue a handful of jobs; more than this waiting means the disk is far behind, and
// queueing further only makes every answer later. Callers answer 503 instead.
inline constexpr std::size_t kMaxQueuedStoreJobs = 32;

class StoreWorker {
public:
    struct Job {
        std::function<void()> run;     // on the store thread
        std::function<void()> cancel;  // instead of run, when the worker stops before reaching the job
    };
    enum class Submitted { Queued, Full, Stopped };

    explicit StoreWorker(std::size_t max_queued = kMaxQueuedStoreJobs);
    ~StoreWorker();  // stop()
    StoreWorker(const StoreWorker&) = delete;
    StoreWorker& operator=(const StoreWorker&) = delete;

    // Queued, or refused (the job is dropped unrun and uncancelled: the caller answers for it).
    Submitted submit(Job job);

    // Lets the running job finish, cancels the queued ones in order, joins. Idempotent; later
    // submissions are refused with Stopped.
    void stop();

private:
    void run();

    const std::size_t max_queued_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Job> jobs_;
    bool stopping_ = false;
    std::thread thread_;  // last, so it starts after everything above exists
};

}  // namespace hschool::store
