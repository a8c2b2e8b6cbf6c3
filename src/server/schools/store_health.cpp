#include "server/schools/store_health.hpp"
#include "util/log.hpp"

namespace hschool::server {

bool StoreHealth::record(std::string_view operation, const std::optional<store::StoreError>& error, Clock::time_point now) {
    const std::lock_guard lock(mutex_);
    if (!error) {
        if (!failure_) return false;
        failure_.reset();
        const bool announce = streak_logged_;
        streak_logged_ = false;
        // A streak nobody was told about ends quietly; one that was logged gets its end logged once.
        if (announce) logging::info("event=store_recovered operation=\"{}\"", operation);
        return announce;
    }
    metrics_.store_error();
    failure_ = std::string(operation) + " failed (" + store::describe(error->kind) + "): " + error->message;
    ++unlogged_failures_;
    const bool due = !last_log_ || now - *last_log_ >= kStoreErrorLogInterval;
    if (!due) return false;
    logging::error("event=store_write_failed operation=\"{}\" kind={} error=\"{}\" failures_since_last_line={}", operation,
                  store::describe(error->kind), error->message, unlogged_failures_);
    last_log_ = now;
    unlogged_failures_ = 0;
    streak_logged_ = true;
    return true;
}

std::optional<std::string> StoreHealth::failure() const {
    const std::lock_guard lock(mutex_);
    return failure_;
}

}  // namespace hschool::server
