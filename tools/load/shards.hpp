#pragma once
// The load generator's shards: one io_context and one thread each, so a shard's clients need no
// locks. Connections start in a ramp (so the server's accept backlog is never overrun); stopping
// asks each shard to shut down on its own thread, waits up to a grace for it to finish, then stops
// whatever is left and joins. Included by the drivers only (it needs Asio).
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include <chrono>
#include <cstddef>
#include <memory>
#include <thread>
#include <vector>

namespace hschool::load {

// At most `batch` connections in flight at once, started in order.
struct ConnectRamp {
    explicit ConnectRamp(int in_flight_at_most) : batch(in_flight_at_most) {}
    // Starts `connect(i)` for the next clients while there is room (none once stopping).
    template <class Connect>
    void launch(bool stopping, std::size_t clients, Connect connect) {
        while (!stopping && in_flight < batch && next < clients) {
            connect(next++);
            ++in_flight;
        }
    }
    void resolved() { --in_flight; }  // one connection opened or failed: the next may start

    const int batch;
    std::size_t next = 0;  // clients before this one have been started
    int in_flight = 0;
};

// Shard: `ioc`, `run()` (returns once its context runs out of work, after setting `finished`) and
// `shutdown()` (ends every connection; called on the shard's own thread).
template <class Shard>
class ShardThreads {
public:
    explicit ShardThreads(std::vector<std::unique_ptr<Shard>>& shards) : shards_(shards) {}
    ~ShardThreads() { stop(std::chrono::seconds(0)); }
    ShardThreads(const ShardThreads&) = delete;
    ShardThreads& operator=(const ShardThreads&) = delete;

    void start() {
        for (auto& shard : shards_) threads_.emplace_back([s = shard.get()] { s->run(); });
    }
    bool running() const { return !threads_.empty(); }
    void stop(std::chrono::milliseconds grace) {
        if (threads_.empty()) return;
        for (auto& shard : shards_) boost::asio::post(shard->ioc, [s = shard.get()] { s->shutdown(); });
        const auto deadline = std::chrono::steady_clock::now() + grace;
        for (auto& shard : shards_) {
            while (!shard->finished && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(10));
            shard->ioc.stop();
        }
        for (auto& t : threads_) t.join();
        threads_.clear();
    }

private:
    std::vector<std::unique_ptr<Shard>>& shards_;
    std::vector<std::thread> threads_;
};

}  // namespace hschool::load
