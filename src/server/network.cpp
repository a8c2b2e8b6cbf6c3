#include "server/network.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <sys/resource.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <span>
#include <thread>
#include <unordered_map>
#include <vector>

#include "protocol/hello.hpp"
#include "protocol/v1.hpp"
#include "protocol/v4.hpp"
#include "server/commands.hpp"
#include "server/fanout.hpp"
#include "server/game_loop.hpp"
#include "server/http_router.hpp"
#include "server/limits.hpp"
#include "server/metrics.hpp"
#include "server/outbox.hpp"
#include "server/wake_batch.hpp"
#include "server/ws_frame.hpp"

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

class WsSession;

// Sessions of one network thread whose outbox has something to send. A tick marks thousands of
// sessions ready; they cost one post per thread, not one per connection, and are written in one pass.
class WriteScheduler final : public WakeTarget {
public:
    explicit WriteScheduler(net::io_context& ioc) : ioc_(ioc) {}

    // From any thread.
    void mark_ready(std::shared_ptr<WsSession> session) {
        std::unique_lock lock(mutex_);
        if (!open_) return;
        ready_.push_back(std::move(session));
        post_drain(lock);
    }

    // What the loop's WakeBatch collected for this thread during one wake-up.
    void wake_all(std::vector<std::shared_ptr<void>>& sessions) override {
        std::unique_lock lock(mutex_);
        if (!open_) return;
        for (auto& session : sessions) ready_.push_back(std::static_pointer_cast<WsSession>(std::move(session)));
        post_drain(lock);
    }

    // Its thread has stopped and the io_context is about to go: nothing may be posted to it any
    // more, and the sessions held here go now, while their io_context still exists.
    void shut() {
        std::lock_guard lock(mutex_);
        open_ = false;
        ready_.clear();
        draining_.clear();
        drained_ = 0;
    }

private:
    void post_drain(std::unique_lock<std::mutex>& lock) {
        if (drain_posted_) return;
        drain_posted_ = true;
        lock.unlock();
        net::post(ioc_, [this] { drain(); });
    }
    void drain();

    net::io_context& ioc_;
    std::mutex mutex_;
    std::vector<std::shared_ptr<WsSession>> ready_;
    std::vector<std::shared_ptr<WsSession>> draining_;  // only the thread touches these two
    std::size_t drained_ = 0;
    bool drain_posted_ = false;
    bool open_ = true;
};

// One per network thread: its io_context (run by that thread alone, so its sessions need no
// strands) and the write scheduler of its sessions.
struct NetworkThread {
    explicit NetworkThread(std::uint32_t i) : index(i), writer(std::make_shared<WriteScheduler>(ioc)) {}
    const std::uint32_t index;  // the shard of its connections
    net::io_context ioc{1};
    std::shared_ptr<WriteScheduler> writer;
    net::executor_work_guard<net::io_context::executor_type> work = net::make_work_guard(ioc);
    std::thread thread;
};

// Tick frames reach each thread's connections as one task per group: the thread pushes into its
// own outboxes and writes them in the same pass.
class ThreadFanOut final : public FanOut {
public:
    ThreadFanOut(std::vector<std::unique_ptr<NetworkThread>>& threads, Metrics& metrics) : threads_(threads), metrics_(metrics) {}

    void deliver(std::uint32_t shard, Frame frame, std::shared_ptr<const OutboxList> outboxes, WireVersion version) override {
        NetworkThread& thread = *threads_[shard % threads_.size()];
        net::post(thread.ioc, [frame = std::move(frame), outboxes = std::move(outboxes), version, &metrics = metrics_] {
            const WakeBatch wakes;  // one drain for the whole list
            metrics.frames_dropped(version, push_tick_to_all(*outboxes, frame));
        });
    }

private:
    std::vector<std::unique_ptr<NetworkThread>>& threads_;
    Metrics& metrics_;
};

// A WebSocket connection after Beast has answered the upgrade: frames are read and written here
// directly (ws_frame), so a shared tick frame goes out as pre-framed bytes, several per sendmsg.
class WsSession : public std::enable_shared_from_this<WsSession> {
public:
    WsSession(tcp::socket&& socket, Shared& shared, NetworkThread& thread)
        : socket_(std::move(socket)),
          hello_timer_(socket_.get_executor()),
          force_close_timer_(socket_.get_executor()),
          shared_(shared),
          thread_(thread),
          id_(shared.next_connection.fetch_add(1)),
          reader_(protocol::v1::kMaxInboundFrameBytes) {}  // the larger limit until Hello says which

    // Beast answers the upgrade; the socket then comes back to us for the frames.
    void run(http::request<http::string_body> request) {
        auto handshake = std::make_shared<websocket::stream<tcp::socket>>(std::move(socket_));
        websocket::stream_base::timeout timeouts{};
        timeouts.handshake_timeout = kHandshakeTimeout;
        timeouts.idle_timeout = websocket::stream_base::none();
        timeouts.keep_alive_pings = false;
        handshake->set_option(timeouts);
        handshake->async_accept(request, [self = shared_from_this(), handshake](beast::error_code ec) {
            if (ec) {
                spdlog::debug("event=ws_accept_failed error=\"{}\"", ec.message());
                return;
            }
            self->socket_ = std::move(handshake->next_layer());
            self->on_open();
        });
    }

    // Called by the write scheduler on this session's thread.
    void flush() {
        if (finished_) return;
        if (write_waiting_) {
            // A close waits for the write in flight; a peer that never reads must not hold it forever.
            if (outbox_->close_requested()) arm_force_close();
            return;
        }
        while (gather() && write_batch()) {
        }
    }

private:
    void on_open() {
        beast::error_code ec;
        socket_.non_blocking(true, ec);
        if (!ec) socket_.set_option(tcp::no_delay(true), ec);  // a Pong must not wait for an ACK
        if (ec) {
            spdlog::debug("event=ws_setup_failed error=\"{}\"", ec.message());
            return;
        }
        // Only weak references: the loop may hold this outbox after the session and even the
        // io_context are gone; the scheduler refuses work once its thread has shut.
        std::weak_ptr<WsSession> weak = weak_from_this();
        std::shared_ptr<WriteScheduler> writer = thread_.writer;
        std::shared_ptr<WakeTarget> target = writer;  // the same object, kept as the type WakeBatch compares
        outbox_ = std::make_shared<Outbox>([weak, writer, target] {
            std::shared_ptr<void> session = weak.lock();
            if (session && !WakeBatch::defer(target, session)) writer->mark_ready(std::static_pointer_cast<WsSession>(std::move(session)));
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

    void do_read() {
        socket_.async_read_some(net::buffer(read_buffer_), beast::bind_front_handler(&WsSession::on_read, shared_from_this()));
    }

    void on_read(beast::error_code ec, std::size_t bytes) {
        for (int reads = 1;; ++reads) {
            if (ec) return finish(ec);
            reader_.feed(protocol::ByteView(read_buffer_.data(), bytes));
            while (auto event = reader_.next()) {
                handle_event(*event);
                if (finished_) return;
            }
            if (replied_) {  // a Pong goes out now, not after the thread's other work
                replied_ = false;
                flush();
            }
            if (reader_.skipped_bytes() > kMaxSkippedFrameBytes) return close_socket();  // not worth a clean close
            // A full buffer means more may be waiting: read on without going back to the reactor.
            if (bytes < read_buffer_.size() || reads >= kMaxReadsPerWake) break;
            bytes = socket_.read_some(net::buffer(read_buffer_), ec);
            if (ec == net::error::would_block) break;
        }
        do_read();
    }

    void handle_event(const ws::Event& event) {
        using Kind = ws::Event::Kind;
        switch (event.kind) {
            case Kind::Message:
                shared_.metrics.frame_in(version_, event.payload.size());
                if (closing_) return;
                if (event.text) return reject("text frames are not accepted");
                return handle_frame(event.payload);
            case Kind::Ping:
                if (!closing_) send_reliable(make_frame(event.payload, ws::Opcode::Pong));
                return;
            case Kind::Pong:
                return;
            case Kind::Close:
                peer_closed_ = true;
                if (close_sent_) return close_socket();  // the handshake is complete
                // Echo the peer's code, as RFC 6455 §5.5.1 asks.
                return close(event.close_code == ws::kNoStatusCode ? CloseCode::Normal : static_cast<CloseCode>(event.close_code), "");
            case Kind::TooBig:
                shared_.metrics.frame_in(version_, 0);
                if (!closing_) close(CloseCode::MessageTooBig, "frame larger than this protocol version allows");
                return;
            case Kind::ProtocolError:
                spdlog::debug("event=ws_protocol_error connection={} reason=\"{}\"", id_, event.reason);
                shared_.metrics.decode_rejected(version_);
                close(CloseCode::ProtocolError, "WebSocket protocol violation");
                return;
        }
    }

    void handle_frame(protocol::ByteView frame) {
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
            shared_.loop.post(cmd::ArenaJoin{{id_, outbox_, thread_.index}, std::get<protocol::v1::Hello>(*decoded).name});
        } else if (*version == protocol::v4::kVersion) {
            const auto decoded = protocol::v4::decode_client(frame);
            if (!decoded) return reject(protocol::describe(decoded.error()));
            promote(WireVersion::Schools, protocol::v4::kMaxInboundFrameBytes);
            shared_.loop.post(cmd::SchoolsJoin{{id_, outbox_, thread_.index}, protocol::v4::locale_of(std::get<protocol::v4::Hello>(*decoded))});
        } else {
            close(CloseCode::ProtocolError, "unsupported protocol version");
        }
    }

    void promote(WireVersion version, std::size_t read_limit) {
        hello_timer_.cancel();
        version_ = version;
        reader_.set_max_message_bytes(read_limit);
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
                    send_reliable(make_frame(v1::encode(v1::Pong{m.client_time_ms, shared_.loop.tick()})));
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
                    send_reliable(make_frame(v4::encode(v4::Pong{m.client_time_ms, shared_.loop.tick()})));
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

    void send_reliable(Frame frame) {
        replied_ = true;
        outbox_->push_reliable(std::move(frame));
    }

    void reject(const char* why) {
        shared_.metrics.decode_rejected(version_);
        close(CloseCode::InvalidPayload, why);
    }

    // Closing goes through the outbox so the Close frame follows what is being written, never splits it.
    void close(CloseCode code, const char* reason) {
        closing_ = true;
        outbox_->request_close({code, reason});
    }

    // Takes what the outbox holds into the batch; false when there is nothing to write.
    bool gather() {
        std::size_t bytes = 0;
        for (const auto& frame : batch_) bytes += frame->size();
        while (!close_sent_ && batch_.size() < kMaxFramesPerWrite && bytes < kMaxBytesPerWrite) {
            auto next = outbox_->next();
            if (next.close) {
                queue_close(*next.close);
                break;
            }
            if (!next.frame) break;
            bytes += next.frame->size();
            batch_.push_back(std::move(next.frame));
        }
        return !batch_.empty();
    }

    void queue_close(CloseRequest request) {
        close_sent_ = true;  // from here on the outbox has nothing more for us
        closing_ = true;
        arm_force_close();  // the peer gets kCloseGrace to answer our close frame
        hello_timer_.cancel();
        if (!peer_closed_) shared_.metrics.close_sent(static_cast<std::uint16_t>(request.code));
        spdlog::debug("event=ws_close connection={} code={} reason=\"{}\"", id_, static_cast<int>(request.code), request.reason);
        close_frame_index_ = batch_.size();
        batch_.push_back(make_frame(ws::close_payload(static_cast<std::uint16_t>(request.code), request.reason), ws::Opcode::Close));
    }

    // One sendmsg for the whole batch; true when all of it went and the caller may gather more.
    bool write_batch() {
        std::array<net::const_buffer, kMaxFramesPerWrite + 1> buffers;
        std::size_t count = 0;
        for (const auto& frame : batch_) {
            const auto wire = frame->wire();
            buffers[count++] = net::buffer(wire.data(), wire.size());
        }
        buffers[0] += batch_offset_;
        beast::error_code ec;
        std::size_t written = socket_.write_some(std::span(buffers.data(), count), ec);
        if (ec == net::error::would_block) {
            written = 0;
        } else if (ec) {
            close_socket();  // the read side finishes the session
            return false;
        }
        consume_written(written);
        if (!batch_.empty()) {
            write_waiting_ = true;
            socket_.async_wait(tcp::socket::wait_write, [self = shared_from_this()](beast::error_code wait_ec) {
                self->write_waiting_ = false;
                if (self->finished_) return;
                if (wait_ec) return self->close_socket();
                if (self->write_batch()) self->flush();
            });
            return false;
        }
        return !close_written_;
    }

    void consume_written(std::size_t written) {
        std::size_t frames = 0, payload_bytes = 0, index = 0;
        written += batch_offset_;
        while (index < batch_.size() && written >= batch_[index]->size()) {
            written -= batch_[index]->size();
            if (close_frame_index_ && *close_frame_index_ == index) {
                close_written_ = true;
            } else {
                ++frames;
                payload_bytes += batch_[index]->payload().size();
            }
            ++index;
        }
        batch_.erase(batch_.begin(), batch_.begin() + static_cast<std::ptrdiff_t>(index));
        batch_offset_ = written;
        if (close_frame_index_) close_frame_index_ = *close_frame_index_ >= index ? std::optional(*close_frame_index_ - index) : std::nullopt;
        if (frames > 0) shared_.metrics.frames_out(version_, frames, payload_bytes);
        // Our Close is out: a peer that already sent its own, or whose stream is broken, is done.
        if (close_written_ && (peer_closed_ || reader_.failed())) close_socket();
    }

    void arm_force_close() {
        if (force_close_armed_) return;
        force_close_armed_ = true;
        force_close_timer_.expires_after(kCloseGrace);
        force_close_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
            if (!ec && !self->finished_) self->close_socket();
        });
    }

    // Ends the TCP connection; the pending read then fails and finishes the session.
    void close_socket() {
        beast::error_code ignored;
        socket_.shutdown(tcp::socket::shutdown_both, ignored);
        socket_.close(ignored);
    }

    void finish(beast::error_code ec) {
        close_socket();
        if (finished_ || !opened_) return;
        finished_ = true;
        hello_timer_.cancel();
        force_close_timer_.cancel();
        batch_.clear();
        if (version_ != WireVersion::None) shared_.loop.post(cmd::Disconnect{id_});
        outbox_->request_close({CloseCode::Normal, "finished"});  // the loop's pushes become no-ops
        shared_.sessions.remove(id_);
        shared_.metrics.connection_closed(version_);
        spdlog::debug("event=ws_finished connection={} reason=\"{}\"", id_, ec.message());
    }

    tcp::socket socket_;
    net::steady_timer hello_timer_;
    net::steady_timer force_close_timer_;
    Shared& shared_;
    NetworkThread& thread_;
    const ConnectionId id_;
    std::shared_ptr<Outbox> outbox_;
    WireVersion version_ = WireVersion::None;
    ws::FrameReader reader_;
    std::array<std::uint8_t, kReadBufferBytes> read_buffer_{};
    std::vector<Frame> batch_;                      // frames being written, in order
    std::size_t batch_offset_ = 0;                  // bytes of batch_.front() already sent
    std::optional<std::size_t> close_frame_index_;  // where our Close sits in batch_
    bool opened_ = false;
    bool replied_ = false;         // this read queued a reply: flush before waiting again
    bool write_waiting_ = false;   // the socket was full: waiting for it to drain
    bool closing_ = false;         // no more messages are acted on
    bool close_sent_ = false;      // our Close is queued; nothing follows it
    bool close_written_ = false;
    bool peer_closed_ = false;
    bool finished_ = false;
    bool force_close_armed_ = false;
};

void WriteScheduler::drain() {
    if (drained_ == draining_.size()) {  // a new round: take everything marked so far
        draining_.clear();
        drained_ = 0;
        std::lock_guard lock(mutex_);
        draining_.swap(ready_);
        drain_posted_ = false;
    }
    const std::size_t end = std::min(draining_.size(), drained_ + kMaxFlushesPerTurn);
    for (; drained_ < end; ++drained_) {
        draining_[drained_]->flush();
        draining_[drained_].reset();
    }
    // The rest waits one turn, so reads that arrived meanwhile (a Ping) are not stuck behind a whole tick.
    if (drained_ < draining_.size()) net::post(ioc_, [this] { drain(); });
}

class HttpSession : public std::enable_shared_from_this<HttpSession> {
public:
    HttpSession(tcp::socket&& socket, Shared& shared, NetworkThread& thread)
        : stream_(std::move(socket)), shared_(shared), thread_(thread) {}

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
                std::make_shared<WsSession>(stream_.release_socket(), shared_, thread_)->run(std::move(request));
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
        // The handler may answer from another thread (the loop); the answer comes back to this connection's thread.
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
    NetworkThread& thread_;
    bool keep_alive_ = true;
    bool head_ = false;
    int requests_served_ = 0;
};

}  // namespace

struct Network::Impl {
    Impl(const NetworkConfig& c, GameLoop& loop, Metrics& metrics, const HttpRouter& router)
        : config(c), shared{loop, metrics, router, {}, {}}, signals(signals_context, SIGINT, SIGTERM) {
        for (int i = 0; i < std::max(1, c.io_threads); ++i) threads.push_back(std::make_unique<NetworkThread>(static_cast<std::uint32_t>(i)));
        acceptor.emplace(threads.front()->ioc);
    }

    // Connections are dealt to the threads in turn; each stays on its thread for life.
    void do_accept() {
        NetworkThread& thread = *threads[next_thread++ % threads.size()];
        acceptor->async_accept(thread.ioc, [this, &thread](beast::error_code ec, tcp::socket socket) {
            if (ec) {
                if (ec == net::error::operation_aborted) return;
                spdlog::warn("event=accept_failed error=\"{}\"", ec.message());
            } else {
                std::make_shared<HttpSession>(std::move(socket), shared, thread)->run();
            }
            if (acceptor->is_open()) do_accept();
        });
    }

    NetworkConfig config;
    Shared shared;
    std::vector<std::unique_ptr<NetworkThread>> threads;
    ThreadFanOut fanout{threads, shared.metrics};
    std::optional<tcp::acceptor> acceptor;  // on the first thread's io_context
    std::size_t next_thread = 0;
    std::uint16_t bound_port = 0;
    net::io_context signals_context;  // its own context: the handler must run even if the threads are busy
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
    auto& acceptor = *impl_->acceptor;
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

FanOut& Network::fanout() { return impl_->fanout; }

void Network::start() {
    impl_->do_accept();
    for (auto& thread : impl_->threads) {
        NetworkThread* t = thread.get();
        t->thread = std::thread([t] {
            // Bulk writes yield to the loop thread, so a busy machine delays frames, not ticks.
            if (setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), kNetworkThreadNice) != 0)
                spdlog::warn("event=network_thread_priority_unchanged error=\"{}\"", std::strerror(errno));
            t->ioc.run();
        });
    }
}

void Network::wait_for_signal() {
    impl_->signals.async_wait([](beast::error_code, int signal) { spdlog::info("event=signal signal={}", signal); });
    impl_->signals_context.run();
}

void Network::close_all_connections() {
    net::post(impl_->acceptor->get_executor(), [this] {
        beast::error_code ec;
        impl_->acceptor->close(ec);
    });
    impl_->shared.sessions.close_all({CloseCode::GoingAway, "server shutting down"});
    if (!impl_->shared.sessions.wait_until_empty(std::chrono::duration_cast<std::chrono::milliseconds>(kShutdownGrace)))
        spdlog::warn("event=shutdown_grace_expired");
}

void Network::stop() {
    for (auto& thread : impl_->threads) {
        thread->work.reset();
        thread->ioc.stop();
    }
    for (auto& thread : impl_->threads) {
        if (thread->thread.joinable()) thread->thread.join();
        thread->writer->shut();
    }
}

}  // namespace hschool::server
