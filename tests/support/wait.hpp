#pragma once
// Waiting in tests: for a condition the test caused (a frame, a close, a counter, a state over
// REST), never for a fixed time.
#include <chrono>
#include <functional>
#include <thread>

namespace hschool::test {

using namespace std::chrono_literals;

// How long a test waits for something it caused: many times what a quiet machine needs, so a busy
// one five times slower under AddressSanitizer meets it too. Every wait ends as soon as its
// condition holds: only a failing test waits this long.
inline constexpr std::chrono::milliseconds kWait = 60s;

// Polls `done` every `interval` until it holds or `timeout` passes; whether it held.
inline bool eventually(const std::function<bool()>& done, std::chrono::milliseconds timeout = kWait,
                       std::chrono::milliseconds interval = 20ms) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        if (done()) return true;
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(interval);
    }
}

}  // namespace hschool::test
