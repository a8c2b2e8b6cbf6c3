#pragma once
// One log line per interval for a warning a hostile peer can trigger at will; the lines skipped
// in between are counted and reported with the next one.
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>

namespace hschool::net {

class LogThrottle {
public:
    using Clock = std::chrono::steady_clock;
    explicit LogThrottle(Clock::duration interval) : interval_(interval) {}

    // The number of lines suppressed since the last one when this one may be written, else nothing.
    std::optional<std::uint64_t> allow(Clock::time_point now) {
        std::lock_guard lock(mutex_);
        if (logged_once_ && now - last_ < interval_) {
            ++suppressed_;
            return std::nullopt;
        }
        logged_once_ = true;
        last_ = now;
        const std::uint64_t skipped = suppressed_;
        suppressed_ = 0;
        return skipped;
    }

private:
    const Clock::duration interval_;
    std::mutex mutex_;
    Clock::time_point last_{};
    std::uint64_t suppressed_ = 0;
    bool logged_once_ = false;
};

}  // namespace hschool::net
