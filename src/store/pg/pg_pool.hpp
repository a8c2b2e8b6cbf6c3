#pragma once
// A bounded set of connections to one PostgreSQL database (issue 34). A caller borrows one for a
// statement or a transaction; a connection found broken is dropped and a new one made on the next
// borrow, so the server recovers by itself when the database comes back.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "store/pg/pg_connection.hpp"

namespace hschool::store::pg {

inline constexpr std::size_t kMaxPoolConnections = 4;   // per pool; a server has a few pools (schools, archive)
inline constexpr auto kPoolWait = std::chrono::milliseconds(2000);  // a borrow waits this long, then Busy
// After a failed connect, borrows fail at once for this long: a database that is down must not
// hold every caller (a network thread's lookup) for a connect timeout each.
inline constexpr auto kReconnectBackoff = std::chrono::milliseconds(1000);

class Pool {
public:
    Pool(std::string url, std::size_t max_connections = kMaxPoolConnections);
    Pool(const Pool&) = delete;
    Pool& operator=(const Pool&) = delete;

    class Lease {
    public:
        Lease(Pool& pool, std::unique_ptr<Connection> connection) : pool_(&pool), connection_(std::move(connection)) {}
        Lease(Lease&& other) noexcept = default;
        ~Lease();
        Connection& operator*() { return *connection_; }
        Connection* operator->() { return connection_.get(); }

    private:
        Pool* pool_;
        std::unique_ptr<Connection> connection_;
    };

    // A healthy connection (made now when none is idle), or why there is none.
    Expected<Lease, StoreError> borrow();
    const std::string& url() const { return url_; }

private:
    void give_back(std::unique_ptr<Connection> connection);

    const std::string url_;
    const std::size_t max_;
    std::mutex mutex_;
    std::condition_variable returned_;
    std::vector<std::unique_ptr<Connection>> idle_;
    std::size_t out_ = 0;  // borrowed or being made
    std::chrono::steady_clock::time_point failed_at_{};  // the last failed connect
};

}  // namespace hschool::store::pg
