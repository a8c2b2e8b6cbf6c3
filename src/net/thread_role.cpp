#include "net/thread_role.hpp"
#include "util/log.hpp"

#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace hschool::net {

namespace {
constexpr std::size_t kMaxThreadNameChars = 15;  // Linux keeps 16 bytes with the terminator
}

void take_thread_role(const char* name, int nice) {
    const std::string shortened = std::string(name).substr(0, kMaxThreadNameChars);
    errno = 0;
    const int current = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
    // Already there (or below: a niced server stays niced).
    if (!(errno == 0 && current >= nice) && setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), nice) != 0)
        logging::warn("event=thread_priority_unchanged thread={} nice={} error=\"{}\"", shortened, nice, std::strerror(errno));
    // Named last: a thread seen by its name (ps, /proc, the tests) already runs at its priority.
    pthread_setname_np(pthread_self(), shortened.c_str());
}

ThreadLauncher::ThreadLauncher() : thread_([this] { run(); }) {}

ThreadLauncher::~ThreadLauncher() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

std::thread ThreadLauncher::launch(std::function<void()> body) {
    Request request{std::move(body), {}};
    auto started = request.started.get_future();
    {
        std::lock_guard lock(mutex_);
        if (stopping_) return std::thread(std::move(request.body));  // the server is going: this thread will do
        requests_.push_back(&request);
    }
    wake_.notify_all();
    return started.get();
}

void ThreadLauncher::run() {
    pthread_setname_np(pthread_self(), "launcher");
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [&] { return stopping_ || !requests_.empty(); });
        // Requests queued before the stop are still started: their callers are waiting.
        if (requests_.empty()) return;
        Request* request = requests_.front();
        requests_.pop_front();
        lock.unlock();
        try {
            request->started.set_value(std::thread(std::move(request->body)));
        } catch (...) {
            request->started.set_exception(std::current_exception());  // no thread to be had: the caller sees why
        }
        lock.lock();
    }
}

}  // namespace hschool::net
