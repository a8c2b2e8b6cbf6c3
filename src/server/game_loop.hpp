#pragma once
// The loop thread: fixed steps at the tick rate, owning every world. Network threads only post
// commands; frames leave through the connections' outboxes.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "server/command_queue.hpp"
#include "server/commands.hpp"
#include "server/limits.hpp"

namespace hschool::server {

class Metrics;
class World;

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
