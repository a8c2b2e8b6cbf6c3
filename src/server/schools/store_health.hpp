#pragma once
// What the server knows of its database: whether the latest write failed, and why. Every write
// (background clocks, creates, deletes) reports here from its own thread; /health reads it.
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "server/schools/schools_metrics.hpp"
#include "store/store_error.hpp"

namespace hschool::server {


// A failing store is retried every clock interval; one log line per this long says it still fails.
inline constexpr std::chrono::seconds kStoreErrorLogInterval{30};

class StoreHealth {
public:
    using Clock = std::chrono::steady_clock;

    explicit StoreHealth(SchoolsMetrics& metrics) : metrics_(metrics) {}

    // One write's outcome; `operation` names it in logs and in the reason ("clock write", "create").
    // Counts every failure; logs a failure streak's start, then at most once per kStoreErrorLogInterval,
    // and its end. Returns true when it wrote a log line.
    bool record(std::string_view operation, const std::optional<store::StoreError>& error, Clock::time_point now = Clock::now());

    // Why the latest write failed; nothing once a write has succeeded again.
    std::optional<std::string> failure() const;

private:
    SchoolsMetrics& metrics_;
    mutable std::mutex mutex_;
    std::optional<std::string> failure_;
    bool streak_logged_ = false;              // the current failure streak was announced
    std::optional<Clock::time_point> last_log_;  // of a failure line
    std::uint64_t unlogged_failures_ = 0;     // since the last failure line
};

}  // namespace hschool::server
