#pragma once
// The one way to end a thread that sleeps on a condition variable until it has work or is told to
// stop: `stopping` set under `mutex` (once), the thread woken and joined.
#include <condition_variable>
#include <mutex>
#include <thread>

namespace hschool::util {

// False when another caller had already set `stopping` (it joins, or has joined, the thread).
inline bool stop_thread(std::mutex& mutex, std::condition_variable& wake, bool& stopping, std::thread& thread) {
    {
        const std::lock_guard lock(mutex);
        if (stopping) return false;  // joining twice is not allowed
        stopping = true;
    }
    wake.notify_all();
    if (thread.joinable()) thread.join();
    return true;
}

}  // namespace hschool::util
