#pragma once
// What a thread is to the operator (its name in top -H, perf and gdb) and how much it yields, and
// a way to start threads that do not inherit a background thread's lowered priority.
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <thread>

namespace hschool::net {

// Names the calling thread (at most 15 characters are kept) and lowers its priority to `nice`
// (never raises it: an unprivileged thread cannot, and a server started niced stays so); the name
// comes last, so a thread seen by its name already runs at its priority.
void take_thread_role(const char* name, int nice);

// Starts threads at the priority of the thread that constructed it. Threads inherit their
// creator's nice value for life: a match started from a nice-10 background worker would run at
// nice 10 beside the replay viewers it should come before.
class ThreadLauncher {
public:
    ThreadLauncher();
    ~ThreadLauncher();
    ThreadLauncher(const ThreadLauncher&) = delete;
    ThreadLauncher& operator=(const ThreadLauncher&) = delete;

    // From any thread: `body` runs on a new thread, started by the launcher's own; returns once it is.
    std::thread launch(std::function<void()> body);

private:
    struct Request {
        std::function<void()> body;
        std::promise<std::thread> started;
    };
    void run();

    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Request*> requests_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace hschool::net
