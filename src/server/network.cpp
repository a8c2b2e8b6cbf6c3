#include "server/network.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <vector>

#include "protocol/hello.hpp"
#include "protocol/v1.hpp"
#include "protocol/v4.hpp"
#include "server/commands.hpp"
#include "server/game_loop.hpp"
#include "server/http_router.hpp"
#include "server/limits.hpp"
#include "server/metrics.hpp"
#include "server/outbox.hpp"

namespace hschool::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using protocol::CloseCode;

namespace {

// Outboxes of every open WebSocket, so shutdown can say goodbye to each.
class SessionRegistry {
public:
    void add(ConnectionId id, std::weak_ptr<Outbox> outbox) {
        std::lock_guard lock(mutex_);
        sessions_.emplace(id, std::move(outbox));
    }
    void remove(ConnectionId id) {
        std::lock_guard lock(mutex_);
        sessions_.erase(id);
        if (sessions_.empty()) empty_.notify_all();
    }
    void close_all(CloseRequest request) {
        std::lock_guard lock(mutex_);
        for (auto& [id, weak] : sessions_)
            if (auto outbox = weak.lock()) outbox->request_close(request);
    }
    bool wait_until_empty(std::chrono::milliseconds timeout) {
        std::unique_lock lock(mutex_);
        return empty_.wait_for(lock, timeout, [this] { return sessions_.empty(); });
    }

private:
    std::mutex mutex_;
    std::condition_variable empty_;
    std::unordered_map<ConnectionId, std::weak_ptr<Outbox>> sessions_;
};

struct Shared {
    GameLoop& loop;
    Metrics& metrics;
    const HttpRouter& router;
    SessionRegistry sessions;
    std::atomic<ConnectionId> next_connection{1};
};

class WsSession : public std::enable_shared_from_this<WsSession> {
public:
    WsSession(tcp::socket&& socket, Shared& shared)
        : ws_(std::move(socket)),
          hello_timer_(ws_.get_executor()),
          force_close_timer_(ws_.get_executor()),
          shared_(shared),
          id_(shared.next_connection.fetch_add(1)) {}

    void run(http::request<http::string_body> request) {
        ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
        ws_.read_message_max(protocol::v1::kMaxInboundFrameBytes + kMaxSkippedFrameBytes);  // Beast's hard cap
        ws_.auto_fragment(false);
        ws_.binary(true);
        ws_.async_accept(request, beast::bind_front_handler(&WsSession::on_accept, shared_from_this()));
    }

private:
    void on_accept(beast::error_code ec) {
        if (ec) {
            spdlog::debug("event=ws_accept_failed error=\"{}\"", ec.message());
            return;
        }
        // Only a weak reference: the loop may hold this outbox after the session and even the
        // io_context are gone, and a copied strand executor would then dangle.
        std::weak_ptr<WsSession> weak = weak_from_this();
        outbox_ = std::make_shared<Outbox>([weak] {
            if (auto session = weak.lock()) {
                net::post(session->ws_.get_executor(), [weak] {
                    if (auto self = weak.lock()) self->do_write();
                });
            }
        });
        shared_.sessions.add(id_, outbox_);
        shared_.metrics.connection_opened(WireVersion::None);
        opened_ = true;
        hello_timer_.expires_after(kHelloDeadline);
        hello_timer_.async_wait([self = shared_from_this()](beast::error_code timer_ec) {
            if (!timer_ec && self->version_ == WireVersion::None) self->close(CloseCode::PolicyViolation, "no Hello within 5 s");
        });
        do_read();
    }

    // Frames are read in pieces so an oversized one can be skipped to its end: the close 1009
    // then goes out on a clean stream instead of the peer seeing a reset.
    void do_read() {
        ws_.async_read_some(buffer_, kReadChunkBytes, beast::bind_front_handler(&WsSession::on_read, shared_from_this()));
    }

    void on_read(beast::error_code ec, std::size_t bytes) {
        if (ec) {
            finish(ec);
            return;  // Beast must not be read again after a failed read
        }
        message_bytes_ += bytes;
        if (message_bytes_ > read_limit_) buffer_.consume(buffer_.size());  // never buffer past the limit
        if (!ws_.is_message_done()) return do_read();
        shared_.metrics.frame_in(version_, message_bytes_);
        if (!closing_) {
            if (message_bytes_ > read_limit_) {
                close(CloseCode::MessageTooBig, "frame larger than this protocol version allows");
            } else {
                const auto data = buffer_.cdata();
                handle_frame(protocol::ByteView(static_cast<const std::uint8_t*>(data.data()), data.size()));
            }
        }
        buffer_.consume(buffer_.size());
        message_bytes_ = 0;
        do_read();
    }

    void handle_frame(protocol::ByteView frame) {
        if (!ws_.got_binary()) return reject("text frames are not accepted");
        switch (version_) {
            case WireVersion::None: return handle_hello(frame);
            case WireVersion::Arena: return handle_arena(frame);
            case WireVersion::Schools: return handle_schools(frame);
        }
    }

    void handle_hello(protocol::ByteView frame) {
        const auto version = protocol::hello_version(frame);
        if (!version) return reject("the first frame must be Hello");
        if (*version == protocol::v1::kVersion) {
            const auto decoded = protocol::v1::decode_client(frame);
            if (!decoded) return reject(protocol::describe(decoded.error()));
            promote(WireVersion::Arena, protocol::v1::kMaxInboundFrameBytes);
            shared_.loop.post(cmd::ArenaJoin{{id_, outbox_}, std::get<protocol::v1::Hello>(*decoded).name});
        } else if (*version == protocol::v4::kVersion) {
            const auto decoded = protocol::v4::decode_client(frame);
            if (!decoded) return reject(protocol::describe(decoded.error()));
            promote(WireVersion::Schools, protocol::v4::kMaxInboundFrameBytes);
            shared_.loop.post(cmd::SchoolsJoin{{id_, outbox_}, protocol::v4::locale_of(std::get<protocol::v4::Hello>(*decoded))});
        } else {
            close(CloseCode::ProtocolError, "unsupported protocol version");
        }
    }

    void promote(WireVersion version, std::size_t read_limit) {
        hello_timer_.cancel();
        version_ = version;
        read_limit_ = read_limit;
        ws_.read_message_max(read_limit + kMaxSkippedFrameBytes);
        shared_.metrics.connection_promoted(version);
        spdlog::debug("event=hello connection={} version={}", id_, static_cast<int>(version));
    }

    void handle_arena(protocol::ByteView frame) {
        namespace v1 = protocol::v1;
        auto decoded = v1::decode_client(frame);
        if (!decoded) return reject(protocol::describe(decoded.error()));
        std::visit(
            [&](auto& m) {
                using M = std::decay_t<decltype(m)>;
                if constexpr (std::is_same_v<M, v1::Hello>) {
                    reject("second Hello");
                } else if constexpr (std::is_same_v<M, v1::Input>) {
                    shared_.loop.post(cmd::ArenaInput{id_, m.sequence, m.buttons});
                } else if constexpr (std::is_same_v<M, v1::Ping>) {
                    // Answered here, not on the next tick, so the round trip measures the network.
                    send_reliable(v1::encode(v1::Pong{m.client_time_ms, shared_.loop.tick()}));
                }
            },
            decoded.value());
    }

    void handle_schools(protocol::ByteView frame) {
        namespace v4 = protocol::v4;
        auto decoded = v4::decode_client(frame);
        if (!decoded) return reject(protocol::describe(decoded.error()));
        std::visit(
            [&](auto& m) {
                using M = std::decay_t<decltype(m)>;
                if constexpr (std::is_same_v<M, v4::Hello>) {
                    reject("second Hello");
                } else if constexpr (std::is_same_v<M, v4::Ping>) {
                    send_reliable(v4::encode(v4::Pong{m.client_time_ms, shared_.loop.tick()}));
                } else if constexpr (std::is_same_v<M, v4::OpenSchool>) {
                    shared_.loop.post(cmd::OpenSchool{id_, m.school_id});
                } else if constexpr (std::is_same_v<M, v4::CloseSchool>) {
                    shared_.loop.post(cmd::CloseSchool{id_});
                } else if constexpr (std::is_same_v<M, v4::SetRunning>) {
                    shared_.loop.post(cmd::SetRunning{id_, m.running});
                } else if constexpr (std::is_same_v<M, v4::SetSpeed>) {
                    shared_.loop.post(cmd::SetSpeed{id_, m.speed_index});
                }
            },
            decoded.value());
    }

    void send_reliable(protocol::Bytes bytes) { outbox_->push_reliable(make_frame(std::move(bytes))); }

    void reject(const char* why) {
        shared_.metrics.decode_rejected(version_);
        close(CloseCode::InvalidPayload, why);
    }

    // Closing goes through the outbox so it waits for a write in flight, never racing it.
    void close(CloseCode code, const char* reason) { outbox_->request_close({code, reason}); }

    void do_write() {
        if (finished_ || closing_) return;
        if (writing_) {
            // A close waits for the write in flight; a peer that never reads must not hold it forever.
            if (outbox_->close_requested()) arm_force_close();
            return;
        }
        auto next = outbox_->next();
        if (next.close) return do_close(*next.close);
        if (!next.frame) return;
        writing_ = true;
        const auto& frame = *next.frame;
        ws_.async_write(net::buffer(frame.data(), frame.size()),
                        [self = shared_from_this(), keep = std::move(next.frame)](beast::error_code ec, std::size_t n) {
                            self->on_write(ec, n);
                        });
    }

    void on_write(beast::error_code ec, std::size_t bytes) {
        writing_ = false;
        if (ec) return;  // the read side sees the failure too and finishes the session
        shared_.metrics.frame_out(version_, bytes);
        do_write();
    }

    void arm_force_close() {
        if (force_close_armed_) return;
        force_close_armed_ = true;
        force_close_timer_.expires_after(kCloseGrace);
        force_close_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
            if (!ec && !self->finished_) {
                beast::error_code ignored;
                self->ws_.next_layer().close(ignored);
            }
        });
    }

    void do_close(CloseRequest request) {
        arm_force_close();  // the peer gets kCloseGrace to answer our close frame
        closing_ = true;
        hello_timer_.cancel();
        shared_.metrics.close_sent(static_cast<std::uint16_t>(request.code));
        spdlog::debug("event=ws_close connection={} code={} reason=\"{}\"", id_, static_cast<int>(request.code),
                      request.reason);
        websocket::close_reason reason;
        reason.code = static_cast<std::uint16_t>(request.code);
        reason.reason = request.reason;
        ws_.async_close(reason, [self = shared_from_this()](beast::error_code) {});
    }

    void finish(beast::error_code ec) {
        if (finished_ || !opened_) return;
        finished_ = true;
        hello_timer_.cancel();
        force_close_timer_.cancel();
        if (ec == websocket::error::message_too_big) shared_.metrics.close_sent(static_cast<std::uint16_t>(CloseCode::MessageTooBig));
        if (version_ != WireVersion::None) shared_.loop.post(cmd::Disconnect{id_});
        outbox_->request_close({CloseCode::Normal, "finished"});  // the loop's pushes become no-ops
        shared_.sessions.remove(id_);
        shared_.metrics.connection_closed(version_);
        spdlog::debug("event=ws_finished connection={} reason=\"{}\"", id_, ec.message());
    }

    // A plain socket underneath: the WebSocket stream keeps its own timers, and Beast's
    // timeout-wrapping tcp_stream cost ~6% of the writer's CPU in the schools profile.
    websocket::stream<tcp::socket> ws_;
    beast::flat_buffer buffer_;
    net::steady_timer hello_timer_;
    net::steady_timer force_close_timer_;
    Shared& shared_;
    const ConnectionId id_;
    std::shared_ptr<Outbox> outbox_;
    WireVersion version_ = WireVersion::None;
    std::size_t read_limit_ = protocol::v1::kMaxInboundFrameBytes;  // the larger one until Hello says which
    std::size_t message_bytes_ = 0;
    bool opened_ = false;
    bool writing_ = false;
    bool closing_ = false;
    bool finished_ = false;
    bool force_close_armed_ = false;
};

class HttpSession : public std::enable_shared_from_this<HttpSession> {
public:
    HttpSession(tcp::socket&& socket, Shared& shared) : stream_(std::move(socket)), shared_(shared) {}

    void run() {
        net::dispatch(stream_.get_executor(), beast::bind_front_handler(&HttpSession::do_read, shared_from_this()));
    }

private:
    void do_read() {
        parser_.emplace();
        parser_->header_limit(kMaxHttpHeaderBytes);
        parser_->body_limit(kMaxHttpBodyBytes);
        stream_.expires_after(requests_served_ == 0 ? kHttpRequestTimeout : kHttpKeepAliveIdle);
        http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
    }

    void on_read(beast::error_code ec, std::size_t) {
        if (ec == http::error::end_of_stream) return shutdown();
        if (ec == http::error::body_limit) {
            return send_and_close(problem(413, "payload-too-large", "Payload too large",
                                          "request bodies are limited to " + std::to_string(kMaxHttpBodyBytes) + " bytes"));
        }
        if (ec == http::error::header_limit) {
            return send_and_close(problem(431, "headers-too-large", "Request header fields too large",
                                          "request headers are limited to " + std::to_string(kMaxHttpHeaderBytes) + " bytes"));
        }
        if (ec == beast::error::timeout) return shutdown();  // a slow client gets cut off, no answer
        if (ec) {
            if (buffer_.size() == 0 && !parser_->got_some()) return shutdown();
            return send_and_close(problem(400, "bad-request", "Bad request", ec.message()));
        }
        auto request = parser_->release();
        if (websocket::is_upgrade(request)) {
            if (request.target() == "/ws/game") {
                stream_.expires_never();
                std::make_shared<WsSession>(stream_.release_socket(), shared_)->run(std::move(request));
                return;
            }
            return send_and_close(problem(404, "not-found", "Not found", "WebSocket endpoint is /ws/game"));
        }
        keep_alive_ = request.keep_alive();
        head_ = request.method() == http::verb::head;
        HttpRequest plain;
        plain.method = std::string(request.method_string());
        const std::string_view target = request.target();
        const auto question = target.find('?');
        if (!percent_decode(target.substr(0, question), plain.path) || plain.path.empty() || plain.path.front() != '/') {
            return send_and_close(problem(400, "bad-request", "Bad request", "malformed request target"));
        }
        if (question != std::string_view::npos) plain.query = std::string(target.substr(question + 1));
        std::string content_type(request[http::field::content_type]);
        content_type = content_type.substr(0, content_type.find(';'));
        while (!content_type.empty() && content_type.back() == ' ') content_type.pop_back();
        for (auto& c : content_type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        plain.content_type = std::move(content_type);
        plain.body = std::move(request.body());
        // The handler may answer from another thread (the loop); the answer comes back to this strand.
        shared_.router.handle(plain, [self = shared_from_this()](HttpResponse response) {
            net::post(self->stream_.get_executor(),
                      [self, response = std::move(response)]() mutable { self->send(std::move(response)); });
        });
    }

    void send_and_close(HttpResponse response) {
        keep_alive_ = false;
        send(std::move(response));
    }

    void send(HttpResponse response) {
        shared_.metrics.http_request(response.status);
        auto message = std::make_shared<http::response<http::string_body>>(static_cast<http::status>(response.status), 11);
        message->set(http::field::server, "hschool");
        if (!response.content_type.empty()) message->set(http::field::content_type, response.content_type);
        for (auto& [name, value] : response.headers) message->set(name, value);
        message->body() = std::move(response.body);
        message->keep_alive(keep_alive_);
        message->prepare_payload();
        if (head_) message->body().clear();  // HEAD keeps GET's Content-Length, sends no body
        stream_.expires_after(kHttpRequestTimeout);
        const bool close_after = !keep_alive_;
        auto on_written = [self = shared_from_this(), message, close_after](beast::error_code ec, std::size_t) {
            if (ec || close_after) return self->shutdown();
            ++self->requests_served_;
            self->do_read();
        };
        http::async_write(stream_, *message, std::move(on_written));
    }

    void shutdown() {
        beast::error_code ec;
        stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    }

    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    Shared& shared_;
    bool keep_alive_ = true;
    bool head_ = false;
    int requests_served_ = 0;
};

}  // namespace

struct Network::Impl {
    Impl(const NetworkConfig& c, GameLoop& loop, Metrics& metrics, const HttpRouter& router)
        : config(c),
          ioc(std::max(1, c.io_threads)),
          acceptor(net::make_strand(ioc)),
          shared{loop, metrics, router, {}, {}},
          signals(signals_context, SIGINT, SIGTERM) {}

    void do_accept() {
        acceptor.async_accept(net::make_strand(ioc), [this](beast::error_code ec, tcp::socket socket) {
            if (ec) {
                if (ec == net::error::operation_aborted) return;
                spdlog::warn("event=accept_failed error=\"{}\"", ec.message());
            } else {
                std::make_shared<HttpSession>(std::move(socket), shared)->run();
            }
            if (acceptor.is_open()) do_accept();
        });
    }

    NetworkConfig config;
    net::io_context ioc;
    tcp::acceptor acceptor;
    Shared shared;
    std::vector<std::thread> threads;
    std::uint16_t bound_port = 0;
    net::io_context signals_context;  // its own context: the handler must run even if the pool is busy
    net::signal_set signals;
};

Network::Network(const NetworkConfig& config, GameLoop& loop, Metrics& metrics, const HttpRouter& router)
    : impl_(std::make_unique<Impl>(config, loop, metrics, router)) {}

Network::~Network() { stop(); }

bool Network::listen() {
    beast::error_code ec;
    const auto address = net::ip::make_address(impl_->config.address, ec);
    if (ec) {
        spdlog::error("event=bad_address address={} error=\"{}\"", impl_->config.address, ec.message());
        return false;
    }
    const tcp::endpoint endpoint(address, impl_->config.port);
    auto& acceptor = impl_->acceptor;
    if (acceptor.open(endpoint.protocol(), ec); !ec) acceptor.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acceptor.bind(endpoint, ec);
    if (!ec) acceptor.listen(net::socket_base::max_listen_connections, ec);
    if (ec) {
        spdlog::error("event=listen_failed address={} port={} error=\"{}\"", impl_->config.address, impl_->config.port,
                      ec.message());
        return false;
    }
    impl_->bound_port = acceptor.local_endpoint().port();
    return true;
}

std::uint16_t Network::port() const { return impl_->bound_port; }

void Network::start() {
    impl_->do_accept();
    for (int i = 0; i < std::max(1, impl_->config.io_threads); ++i) impl_->threads.emplace_back([this] { impl_->ioc.run(); });
}

void Network::wait_for_signal() {
    impl_->signals.async_wait([](beast::error_code, int signal) { spdlog::info("event=signal signal={}", signal); });
    impl_->signals_context.run();
}

void Network::close_all_connections() {
    net::post(impl_->acceptor.get_executor(), [this] {
        beast::error_code ec;
        impl_->acceptor.close(ec);
    });
    impl_->shared.sessions.close_all({CloseCode::GoingAway, "server shutting down"});
    if (!impl_->shared.sessions.wait_until_empty(std::chrono::duration_cast<std::chrono::milliseconds>(kShutdownGrace)))
        spdlog::warn("event=shutdown_grace_expired");
}

void Network::stop() {
    if (impl_->threads.empty()) return;
    impl_->ioc.stop();
    for (auto& thread : impl_->threads) thread.join();
    impl_->threads.clear();
}

}  // namespace hschool::server
