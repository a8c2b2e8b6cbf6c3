// The listener and the network threads: accepts connections (backing off when the process runs out
// of descriptors), deals them to the threads, fans tick frames out, and stops in order.
#include "net/network.hpp"

#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/error.hpp>
#include <future>
#include <optional>
#include <string>

#include "net/close_codes.hpp"
#include "net/fanout.hpp"
#include "net/network_thread.hpp"
#include "net/thread_role.hpp"
#include "util/log.hpp"

namespace hschool::net {

namespace beast = boost::beast;

namespace {

// Tick frames reach each thread's connections as one task per group: the thread pushes into its
// own outboxes and writes them in the same pass.
class ThreadFanOut final : public FanOut {
public:
    ThreadFanOut(std::vector<std::unique_ptr<NetworkThread>>& threads, TransportMetrics& metrics) : threads_(threads), metrics_(metrics) {}

    void deliver(std::uint32_t shard, Frame frame, std::shared_ptr<const OutboxList> outboxes, ProtocolTag tag) override {
        NetworkThread& thread = *threads_[shard % threads_.size()];
        thread.post([frame = std::move(frame), outboxes = std::move(outboxes), tag, &metrics = metrics_] {
            const WakeBatch wakes;  // one drain for the whole list
            metrics.frames_dropped(tag, push_tick_to_all(*outboxes, frame));
        });
    }

    void run(std::uint32_t shard, std::function<void()> task) override {
        threads_[shard % threads_.size()]->post([task = std::move(task)] {
            const WakeBatch wakes;  // one drain for the whole shard
            task();
        });
    }

private:
    std::vector<std::unique_ptr<NetworkThread>>& threads_;
    TransportMetrics& metrics_;
};

// Out of descriptors or kernel memory: accepting again at once would spin and flood the log.
bool is_resource_exhaustion(const beast::error_code& ec) {
    return ec == asio::error::no_descriptors || ec == asio::error::no_buffer_space || ec == asio::error::no_memory ||
           ec.value() == ENFILE;
}

}  // namespace

struct Network::Impl {
    Impl(const NetworkConfig& c, TransportMetrics& metrics, const HttpRouter& router)
        : shared(c, metrics, router), signals(signals_context, SIGINT, SIGTERM) {
        for (int i = 0; i < std::max(1, c.io_threads); ++i) threads.push_back(std::make_unique<NetworkThread>(static_cast<std::uint32_t>(i)));
        acceptor.emplace(threads.front()->ioc);
        accept_backoff_timer.emplace(threads.front()->ioc);
    }

    // Connections are dealt to the threads in turn; each stays on its thread for life.
    void do_accept() {
        NetworkThread& thread = *threads[next_thread++ % threads.size()];
        acceptor->async_accept(thread.ioc, [this, &thread](beast::error_code ec, tcp::socket socket) {
            if (ec == asio::error::operation_aborted || !acceptor->is_open()) return;
            if (ec) return on_accept_error(ec);
            accept_backoff = std::chrono::milliseconds(0);
            start_http_session(std::move(socket), shared, thread);
            do_accept();
        });
    }

    void on_accept_error(const beast::error_code& ec) {
        shared.metrics.accept_error();
        const auto base = std::chrono::duration_cast<std::chrono::milliseconds>(kAcceptBackoffMin);
        accept_backoff = is_resource_exhaustion(ec)
                             ? std::min(std::chrono::duration_cast<std::chrono::milliseconds>(kAcceptBackoffMax),
                                        accept_backoff.count() == 0 ? base : accept_backoff * 2)
                             : base;
        if (const auto skipped = accept_log.allow(std::chrono::steady_clock::now()))
            logging::warn("event=accept_failed error=\"{}\" backoff_ms={} similar_events_not_logged={}", ec.message(),
                         accept_backoff.count(), *skipped);
        accept_backoff_timer->expires_after(accept_backoff);
        accept_backoff_timer->async_wait([this](beast::error_code timer_ec) {
            if (!timer_ec && acceptor->is_open()) do_accept();
        });
    }

    NetworkShared shared;
    std::vector<std::unique_ptr<NetworkThread>> threads;
    ThreadFanOut fanout{threads, shared.metrics};
    std::optional<tcp::acceptor> acceptor;  // on the first thread's io_context
    std::optional<asio::steady_timer> accept_backoff_timer;
    std::chrono::milliseconds accept_backoff{0};
    LogThrottle accept_log{kLogThrottleInterval};
    std::size_t next_thread = 0;
    std::uint16_t bound_port = 0;
    bool stopped = false;
    asio::io_context signals_context;  // its own context: the handler must run even if the threads are busy
    asio::signal_set signals;
};

Network::Network(const NetworkConfig& config, TransportMetrics& metrics, const HttpRouter& router)
    : impl_(std::make_unique<Impl>(config, metrics, router)) {}

Network::~Network() { stop(); }

WsEndpoints& Network::endpoints() { return impl_->shared.endpoints; }

bool Network::listen() {
    beast::error_code ec;
    const auto& config = impl_->shared.config;
    const auto address = asio::ip::make_address(config.address, ec);
    if (ec) {
        logging::error("event=bad_address address={} error=\"{}\"", config.address, ec.message());
        return false;
    }
    const tcp::endpoint endpoint(address, config.port);
    auto& acceptor = *impl_->acceptor;
    if (acceptor.open(endpoint.protocol(), ec); !ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) acceptor.bind(endpoint, ec);
    if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
        logging::error("event=listen_failed address={} port={} error=\"{}\"", config.address, config.port, ec.message());
        return false;
    }
    impl_->bound_port = acceptor.local_endpoint().port();
    return true;
}

std::uint16_t Network::port() const { return impl_->bound_port; }

FanOut& Network::fanout() { return impl_->fanout; }

void Network::start() {
    impl_->do_accept();
    for (auto& thread : impl_->threads) {
        NetworkThread* t = thread.get();
        t->thread = std::thread([t] {
            // Bulk writes yield to the loop thread, so a busy machine delays frames, not ticks.
            take_thread_role(("net-" + std::to_string(t->index)).c_str(), kNetworkThreadNice);
            t->ioc.run();
        });
    }
}

void Network::wait_for_signal() {
    impl_->signals.async_wait([](beast::error_code, int signal) { logging::info("event=signal signal={}", signal); });
    impl_->signals_context.run();
}

void Network::close_all_connections() {
    NetworkThread& first = *impl_->threads.front();
    first.post([this] {
        beast::error_code ec;
        impl_->acceptor->close(ec);
        impl_->accept_backoff_timer->cancel();
    });
    impl_->shared.sessions.close_all({close_code::kGoingAway, "server shutting down", CloseCause::Shutdown});
    if (!impl_->shared.sessions.wait_until_empty(std::chrono::duration_cast<std::chrono::milliseconds>(kShutdownGrace)))
        logging::warn("event=shutdown_grace_expired");
}

void Network::stop() {
    if (impl_->stopped) return;
    impl_->stopped = true;
    // Sessions that outlived the grace period end through their own finish path, on their thread.
    for (auto& thread : impl_->threads) {
        if (!thread->thread.joinable()) continue;
        auto done = std::make_shared<std::promise<void>>();
        auto finished = done->get_future();
        NetworkThread* t = thread.get();
        if (t->post([t, done] {
                finish_ws_sessions(*t, "server stopped");
                done->set_value();
            })) {
            finished.wait_for(kShutdownGrace);
        }
    }
    // From here nothing new reaches the threads; what is queued is destroyed with the io_contexts.
    for (auto& thread : impl_->threads) {
        thread->shut_gate();
        thread->work.reset();
        thread->ioc.stop();
    }
    for (auto& thread : impl_->threads) {
        if (thread->thread.joinable()) thread->thread.join();
        thread->writer->shut();
        thread->reads.shut();
    }
}

}  // namespace hschool::net
