#include "server/game_loop.hpp"

#include "server/limits.hpp"
#include "server/metrics.hpp"
#include "net/thread_role.hpp"
#include "net/wake_batch.hpp"
#include "util/log.hpp"
#include "util/overloaded.hpp"

namespace hschool::server {

GameLoop::GameLoop(int tick_rate, World& world, Metrics& metrics)
    : tick_rate_(tick_rate),
      period_(std::chrono::nanoseconds(std::chrono::seconds(1)) / tick_rate),
      world_(world),
      metrics_(metrics) {}

GameLoop::~GameLoop() { stop(); }

void GameLoop::start() { thread_ = std::thread([this] { run(); }); }

void GameLoop::stop() {
    {
        std::lock_guard lock(stop_mutex_);
        stopping_ = true;
    }
    stop_signal_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void GameLoop::post(Command command) { commands_.push(std::move(command)); }

bool GameLoop::try_post(Command command) {
    if (commands_.try_push(std::move(command))) return true;
    metrics_.commands_rejected();
    return false;
}

void GameLoop::drain_commands() {
    commands_.drain(draining_);
    for (auto& command : draining_) {
        std::visit(Overloaded{
                       [&](cmd::ArenaJoin& c) { world_.arena.join(c); },
                       [&](cmd::ArenaJoinV5& c) { world_.arena.join_v5(c); },
                       [&](cmd::ArenaInput& c) { world_.arena.input(c); },
                       [&](cmd::SchoolsJoin& c) { world_.schools.join(c); },
                       [&](cmd::OpenSchool& c) { world_.schools.open(c); },
                       [&](cmd::CloseSchool& c) { world_.schools.close(c); },
                       [&](cmd::SetRunning& c) { world_.schools.set_running(c); },
                       [&](cmd::SetSpeed& c) { world_.schools.set_speed(c); },
                       [&](cmd::Disconnect& c) {
                           world_.arena.disconnect(c.connection);
                           world_.schools.disconnect(c.connection);
                       },
                       [&](cmd::Task& c) { c.run(world_); },
                   },
                   command);
    }
    draining_.clear();
}

// Worlds step in one explicit order; frames go out once per wake-up, after the last step.
void GameLoop::step_all(int steps) {
    const auto step_us = std::chrono::duration_cast<std::chrono::microseconds>(period_).count();
    for (int i = 0; i < steps; ++i) {
        world_.arena.step();
        world_.schools.step(step_us);
        tick_.fetch_add(1, std::memory_order_relaxed);
    }
    world_.arena.broadcast();
    world_.schools.broadcast();
}

void GameLoop::run() {
    net::take_thread_role("loop", 0);
    using Clock = std::chrono::steady_clock;
    auto next = Clock::now() + period_;
    while (true) {
        {
            std::unique_lock lock(stop_mutex_);
            if (stop_signal_.wait_until(lock, next, [this] { return stopping_; })) break;
        }
        const auto started = Clock::now();
        const StepPlan plan = plan_steps(next, started, period_, kMaxCatchUpSteps);
        if (plan.dropped > 0) {
            logging::warn("event=loop_stall steps_due={} steps_dropped={}", plan.steps + plan.dropped, plan.dropped);
            metrics_.steps_dropped(static_cast<std::uint64_t>(plan.dropped));
        }
        next = plan.next_deadline;
        if (plan.steps > 1) metrics_.steps_caught_up(static_cast<std::uint64_t>(plan.steps - 1));
        {
            const net::WakeBatch wakes;  // network threads start writing once the whole broadcast is queued
            drain_commands();
            step_all(plan.steps);
        }
        const auto took = Clock::now() - started;
        metrics_.tick(std::chrono::duration<double>(took).count());
        if (took > period_) metrics_.tick_overrun();
    }
    drain_commands();  // disconnects and last writes still reach the worlds before shutdown
}

StepPlan plan_steps(std::chrono::steady_clock::time_point deadline, std::chrono::steady_clock::time_point now,
                    std::chrono::nanoseconds period, int max_catch_up_steps) {
    StepPlan plan;
    const auto due = now < deadline ? 1 : static_cast<std::int64_t>((now - deadline) / period) + 1;
    if (due > max_catch_up_steps) {
        plan.steps = max_catch_up_steps;
        plan.dropped = due - max_catch_up_steps;
        plan.next_deadline = now + period;  // the backlog is forgotten, not simulated in a burst
    } else {
        plan.steps = static_cast<int>(due);
        plan.next_deadline = deadline + period * due;
    }
    return plan;
}

}  // namespace hschool::server
