#pragma once
// The network side: one listener serving HTTP and the WebSocket /ws/game. Beast stays inside
// network.cpp; everything else talks to it through this header.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace hschool::server {

class FanOut;
class GameLoop;
class HttpRouter;
class Metrics;

struct NetworkConfig {
    std::string address = "127.0.0.1";
    std::uint16_t port = 0;  // 0: any free port
    int io_threads = 1;
};

class Network {
public:
    Network(const NetworkConfig& config, GameLoop& loop, Metrics& metrics, const HttpRouter& router);
    ~Network();

    // Binds and listens; false (with the reason logged) when the address cannot be used.
    bool listen();
    std::uint16_t port() const;
    // Delivers tick frames on the network threads; give it to the services before the loop starts.
    FanOut& fanout();
    void start();
    // Blocks until SIGINT or SIGTERM arrives.
    void wait_for_signal();
    // Stops accepting and sends close 1001 to every WebSocket; waits up to the grace period.
    void close_all_connections();
    void stop();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace hschool::server
