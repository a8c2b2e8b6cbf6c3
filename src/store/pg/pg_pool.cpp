#include "store/pg/pg_pool.hpp"

namespace hschool::store::pg {

Pool::Pool(std::string url, std::size_t max_connections) : url_(std::move(url)), max_(max_connections) {}

Pool::Lease::~Lease() {
    if (pool_ && connection_) pool_->give_back(std::move(connection_));
}

Expected<Pool::Lease, StoreError> Pool::borrow() {
    std::unique_lock lock(mutex_);
    const bool room = returned_.wait_for(lock, kPoolWait, [&] { return !idle_.empty() || out_ < max_; });
    if (!room) return unexpected(StoreError{StoreErrorKind::Busy, "every database connection is in use"});
    while (!idle_.empty()) {
        auto connection = std::move(idle_.back());
        idle_.pop_back();
        if (connection->healthy()) {
            ++out_;
            return Lease(*this, std::move(connection));
        }
    }
    if (failed_at_ != std::chrono::steady_clock::time_point{} && std::chrono::steady_clock::now() - failed_at_ < kReconnectBackoff)
        return unexpected(StoreError{StoreErrorKind::Unavailable, "the database could not be reached a moment ago"});
    ++out_;
    lock.unlock();
    auto made = Connection::connect(url_);
    const std::lock_guard relock(mutex_);
    if (!made) {
        --out_;
        failed_at_ = std::chrono::steady_clock::now();
        returned_.notify_one();
        return unexpected(std::move(made).error());
    }
    failed_at_ = {};
    return Lease(*this, std::move(made).value());
}

void Pool::give_back(std::unique_ptr<Connection> connection) {
    const std::lock_guard lock(mutex_);
    --out_;
    if (connection->healthy()) idle_.push_back(std::move(connection));  // a broken one is dropped
    returned_.notify_one();
}

}  // namespace hschool::store::pg
