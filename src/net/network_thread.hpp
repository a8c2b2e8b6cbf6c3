#pragma once
// The Asio side shared by the transport's own files only (network.cpp, http_session.cpp and the
// ws_session files): network threads, their write schedulers, and what every connection shares.
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "net/connection_limiter.hpp"
#include "net/limits.hpp"
#include "net/log_throttle.hpp"
#include "net/network.hpp"
#include "net/read_poller.hpp"
#include "net/session_registry.hpp"
#include "net/transport_metrics.hpp"
#include "net/wake_batch.hpp"
#include "net/ws_endpoint.hpp"

namespace hschool::net {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

class HttpRouter;
class WsSession;

// Sessions of one network thread whose outbox has something to send. A tick marks thousands of
// sessions ready; they cost one post per thread, not one per connection, and are written in one pass.
class WriteScheduler final : public WakeTarget {
public:
    explicit WriteScheduler(asio::io_context& ioc) : ioc_(ioc) {}

    // From any thread.
    void mark_ready(std::shared_ptr<WsSession> session);
    // What the loop's WakeBatch collected for this thread during one wake-up.
    void wake_all(std::vector<std::shared_ptr<void>>& sessions) override;
    // Its thread has stopped and the io_context is about to go: nothing may be posted to it any
    // more, and the sessions held here go now, while their io_context still exists.
    void shut();

private:
    void post_drain(std::unique_lock<std::mutex>& lock);
    void drain();

    asio::io_context& ioc_;
    std::mutex mutex_;
    std::vector<std::shared_ptr<WsSession>> ready_;
    std::vector<std::shared_ptr<WsSession>> draining_;  // only the thread touches these two
    std::size_t drained_ = 0;
    bool drain_posted_ = false;
    bool open_ = true;
};

// One per network thread: its io_context (run by that thread alone, so its sessions need no
// strands), the write scheduler of its sessions and the sessions themselves.
class NetworkThread {
public:
    explicit NetworkThread(std::uint32_t i) : index(i), writer(std::make_shared<WriteScheduler>(ioc)) {}

    // Work from other threads (the loop's answers, fan-out). Refused once the thread has shut, so
    // nothing posted late can outlive the io_context.
    template <class Handler>
    bool post(Handler&& handler) {
        std::lock_guard lock(gate_mutex_);
        if (!open_) return false;
        asio::post(ioc, std::forward<Handler>(handler));
        return true;
    }
    void shut_gate() {
        std::lock_guard lock(gate_mutex_);
        open_ = false;
    }

    const std::uint32_t index;  // the shard of its connections
    asio::io_context ioc{1};
    std::shared_ptr<WriteScheduler> writer;
    ReadPoller reads{ioc};  // its polled sockets, read in batches
    asio::executor_work_guard<asio::io_context::executor_type> work = asio::make_work_guard(ioc);
    std::thread thread;
    // Open WebSockets of this thread (this thread only touches it), so shutdown can finish each.
    std::unordered_map<ConnectionId, std::weak_ptr<WsSession>> sessions;

private:
    std::mutex gate_mutex_;
    bool open_ = true;
};

// What every connection of the process shares.
struct NetworkShared {
    NetworkShared(const NetworkConfig& c, TransportMetrics& m, const HttpRouter& r)
        : config(c),
          metrics(m),
          router(r),
          limiter(c.max_connections, c.max_connections_per_ip),
          http_limiter(c.max_http_connections, c.max_http_connections_per_ip) {}

    const NetworkConfig config;
    TransportMetrics& metrics;
    const HttpRouter& router;
    WsEndpoints endpoints;  // filled before the threads start; read-only afterwards
    SessionRegistry sessions;
    ConnectionLimiter limiter;       // WebSockets
    ConnectionLimiter http_limiter;  // plain HTTP connections (an upgraded one leaves it)
    std::atomic<ConnectionId> next_connection{1};
    LogThrottle budget_log{kLogThrottleInterval};   // a flood of floods writes one line per interval
    LogThrottle timeout_log{kLogThrottleInterval};
    LogThrottle refused_log{kLogThrottleInterval};
    LogThrottle close_log{kLogThrottleInterval};  // connections the server ends: one line per interval
};

// Serves HTTP on an accepted socket (http_session.cpp); upgrades become WebSocket sessions.
void start_http_session(tcp::socket&& socket, NetworkShared& shared, NetworkThread& thread);

// Finishes every WebSocket of the calling thread's NetworkThread (shutdown; runs on that thread).
void finish_ws_sessions(NetworkThread& thread, const char* why);

}  // namespace hschool::net
