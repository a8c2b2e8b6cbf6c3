#pragma once
// The transport: one listener serving HTTP and the WebSocket paths games register. Asio and Beast
// stay inside the transport's own files; everything else talks to it through this header, the
// router (http_router.hpp) and the WebSocket seam (ws_endpoint.hpp, ws_connection.hpp).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "net/limits.hpp"
#include "net/token_bucket.hpp"

namespace hschool::net {

class FanOut;
class HttpRouter;
class TransportMetrics;
class WsEndpoints;

struct NetworkConfig {
    std::string address = "127.0.0.1";
    std::uint16_t port = 0;  // 0: any free port
    int io_threads = kDefaultIoThreads;
    std::size_t max_connections = kDefaultMaxConnections;                // open WebSockets in all; 0: no cap
    std::size_t max_connections_per_ip = kDefaultMaxConnectionsPerIp;    // from one client address; 0: no cap
    std::size_t max_http_connections = kDefaultMaxHttpConnections;        // plain HTTP connections in all; 0: no cap
    std::size_t max_http_connections_per_ip = kDefaultMaxHttpConnectionsPerIp;
    std::vector<std::string> allowed_origins;                            // besides the request's own host
    std::chrono::milliseconds ping_interval = kDefaultPingInterval;
    std::chrono::milliseconds peer_timeout = kDefaultPeerTimeout;       // nothing received for this long → close
    std::chrono::milliseconds write_stall = kDefaultWriteStall;         // socket unwritable for this long → drop
    std::chrono::milliseconds max_delivery_lag = kDefaultMaxDeliveryLag;  // reader this far behind → lossy frames wait (0: off)
    BudgetLimits inbound_budget = kDefaultInboundBudget;
    // Testing only (issue 42's starved network threads): each frame a network thread writes costs it
    // this much sleep, so frames pile up faster than it writes them. 0: off.
    std::chrono::milliseconds test_write_delay{0};
};

class Network {
public:
    Network(const NetworkConfig& config, TransportMetrics& metrics, const HttpRouter& router);
    ~Network();

    // Binds and listens; false (with the reason logged) when the address cannot be used.
    bool listen();
    std::uint16_t port() const;
    // The WebSocket paths and their endpoints; games add theirs before start(), never after.
    WsEndpoints& endpoints();
    // Delivers tick frames on the network threads; give it to the services before the loop starts.
    FanOut& fanout();
    void start();
    // Blocks until SIGINT or SIGTERM arrives.
    void wait_for_signal();
    // Stops accepting and sends close 1001 to every WebSocket; waits up to the grace period.
    void close_all_connections();
    // Finishes every session still open, stops the threads; nothing is posted to them afterwards.
    void stop();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace hschool::net
