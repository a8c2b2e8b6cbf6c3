#pragma once
// The loop thread: fixed steps at the tick rate, owning every world. Network threads only post
// commands; frames leave through the connections' outboxes. Here also what it runs on: its inbox,
// its worlds, and the arithmetic of how many steps a wake-up takes.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "server/arena/arena_service.hpp"
#include "server/commands.hpp"
#include "server/limits.hpp"
#include "server/schools/schools_service.hpp"

namespace hschool::server {

class Metrics;

// Many producers (network threads), one consumer (the loop): push under a lock, drain by swap.
template <class T>
class CommandQueue {
public:
    explicit CommandQueue(std::size_t bound) : bound_(bound) {}

    // Always queued: what must never be lost (a Disconnect, an HTTP task that answers).
    void push(T item) {
        std::lock_guard lock(mutex_);
        items_.push_back(std::move(item));
    }
    // Queued only while fewer than the bound wait: clients' commands, so a flood cannot grow memory.
    bool try_push(T item) {
        std::lock_guard lock(mutex_);
        if (items_.size() >= bound_) return false;
        items_.push_back(std::move(item));
        return true;
    }
    // Swaps the pending commands into out (cleared first), so the lock is held for a swap only.
    void drain(std::vector<T>& out) {
        out.clear();
        std::lock_guard lock(mutex_);
        std::swap(out, items_);
    }

private:
    const std::size_t bound_;
    std::mutex mutex_;
    std::vector<T> items_;
};

// Everything the loop thread owns, in the order it is stepped.
class World {
public:
    World(ArenaService& arena_service, SchoolsService& schools_service)
        : arena(arena_service), schools(schools_service) {}
    ArenaService& arena;
    SchoolsService& schools;
};

// How many fixed steps a loop wake-up runs: pure arithmetic on deadlines, so it is testable
// without a clock.
struct StepPlan {
    int steps = 0;                      // steps to simulate now (at least 1, at most the catch-up limit)
    std::int64_t dropped = 0;           // steps skipped because the stall was too long
    std::chrono::steady_clock::time_point next_deadline;
};

// `deadline` is the wake-up that was due; `now` is when the loop actually woke (now >= deadline).
StepPlan plan_steps(std::chrono::steady_clock::time_point deadline, std::chrono::steady_clock::time_point now,
                    std::chrono::nanoseconds period, int max_catch_up_steps);

class GameLoop {
public:
    GameLoop(int tick_rate, World& world, Metrics& metrics);
    ~GameLoop();
    GameLoop(const GameLoop&) = delete;
    GameLoop& operator=(const GameLoop&) = delete;

    void start();
    // Runs the commands still queued, then stops the thread. Idempotent.
    void stop();
    // Always queued (disconnects, HTTP tasks: bounded by the connections that can ask).
    void post(Command command);
    // A client's command; false when the inbox holds kMaxQueuedCommands already.
    [[nodiscard]] bool try_post(Command command);
    // Steps taken so far; what Pong reports as the server tick.
    std::uint32_t tick() const { return tick_.load(std::memory_order_relaxed); }
    int tick_rate() const { return tick_rate_; }

private:
    void run();
    void drain_commands();
    void step_all(int steps);

    const int tick_rate_;
    const std::chrono::nanoseconds period_;
    World& world_;
    Metrics& metrics_;
    CommandQueue<Command> commands_{kMaxQueuedCommands};
    std::vector<Command> draining_;
    std::atomic<std::uint32_t> tick_{0};
    std::mutex stop_mutex_;
    std::condition_variable stop_signal_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace hschool::server
