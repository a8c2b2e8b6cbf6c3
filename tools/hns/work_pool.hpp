#pragma once
// A fixed pool of threads that runs one batch at a time: run(n, job) calls job(0 … n-1) spread
// over the workers and the calling thread, and returns when all are done. The bridge steps its
// environments side by side with it; each index is one environment, touched by one thread.
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace hschool::tools::hns {

class WorkPool {
public:
    // `threads` in all, the caller's included (1: everything on the caller).
    explicit WorkPool(int threads);
    ~WorkPool();
    WorkPool(const WorkPool&) = delete;
    WorkPool& operator=(const WorkPool&) = delete;

    void run(std::size_t n, const std::function<void(std::size_t)>& job);
    int threads() const { return static_cast<int>(workers_.size()) + 1; }

private:
    void work_loop();
    void drain();

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const std::function<void(std::size_t)>* job_ = nullptr;
    std::size_t next_ = 0, total_ = 0, finished_ = 0;
    std::size_t generation_ = 0;
    bool stopping_ = false;
};

}  // namespace hschool::tools::hns
