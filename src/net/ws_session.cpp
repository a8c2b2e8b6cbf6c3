#include "net/ws_session.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/websocket.hpp>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <cerrno>

#include <array>
#include <atomic>
#include <optional>
#include <span>

#include "protocol/v1.hpp"
#include "server/hns/peer.hpp"
#include "net/delivery_window.hpp"
#include "server/game_loop.hpp"
#include "server/limits.hpp"
#include "server/metrics.hpp"
#include "net/outbox.hpp"
#include "net/read_poller.hpp"
#include "server/session_dispatch.hpp"
#include "net/ws_frame.hpp"

namespace hschool::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using protocol::CloseCode;
using SteadyClock = std::chrono::steady_clock;

namespace {

template <class... F>
struct Overloaded : F... {
    using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;  // clang 14 has no aggregate deduction yet (the sanitizer build)

// The server's WebSocket Ping: framed once, the same bytes for every connection.
const Frame& ping_frame() {
    static const Frame frame = make_frame({}, ws::Opcode::Ping);
    return frame;
}

BudgetLimits sprite_budget(const BudgetLimits& configured) {
    const auto& floor = kSpriteInboundBudgetFloor;
    return {std::max(configured.messages_per_second, floor.messages_per_second), std::max(configured.message_burst, floor.message_burst),
            std::max(configured.bytes_per_second, floor.bytes_per_second), std::max(configured.byte_burst, floor.byte_burst)};
}

// A hide-and-seek match's view of a socket: it sends through the outbox (thread-safe), never the session.
class OutboxPeer final : public hns::Peer {
public:
    explicit OutboxPeer(std::weak_ptr<Outbox> outbox) : outbox_(std::move(outbox)) {}
    bool send(protocol::ByteView message, bool text) override {
        auto outbox = outbox_.lock();
        return outbox && outbox->push_reliable(make_frame(message, text ? ws::Opcode::Text : ws::Opcode::Binary));
    }
    void close(std::uint16_t code, const char* reason) override {
        if (auto outbox = outbox_.lock()) outbox->request_close({static_cast<CloseCode>(code), reason});
    }

    // The shared frame goes in wrapped in this socket's own handle, whose release (written, dropped
    // or the session gone) takes its bytes off the backlog: the count covers the writer's batch too.
    bool send_shared(const hns::SharedMessagePtr& message) override {
        auto outbox = outbox_.lock();
        if (!outbox) return false;
        auto wire = std::static_pointer_cast<const WireFrame>(
            message->wire([](protocol::ByteView payload) { return std::shared_ptr<const void>(make_frame(payload)); }));
        const std::size_t bytes = wire->size();
        backlog_->fetch_add(bytes);
        Frame handle(wire.get(), [wire, backlog = backlog_, bytes](const WireFrame*) { backlog->fetch_sub(bytes); });
        return outbox->push_stream(std::move(handle));
    }
    std::size_t shared_backlog() const override { return backlog_->load(); }
    bool reader_lagging() const override {
        auto outbox = outbox_.lock();
        return outbox && outbox->reader_lagging();
    }
    void drop_shared_backlog() override {
        if (auto outbox = outbox_.lock()) outbox->clear_stream();
    }

private:
    std::weak_ptr<Outbox> outbox_;
    // Shared with the handles, which may outlive this peer in a writer's batch.
    std::shared_ptr<std::atomic<std::size_t>> backlog_ = std::make_shared<std::atomic<std::size_t>>(0);
};

}  // namespace

// A WebSocket connection after Beast has answered the upgrade: frames are read and written here
// directly (ws_frame), so a shared tick frame goes out as pre-framed bytes, several per sendmsg.
// Its life is one explicit state; every way it ends goes through finish().
class WsSession final : public std::enable_shared_from_this<WsSession>, public PolledSocket {
public:
    enum class State : std::uint8_t {
        Upgrading,      // Beast is answering the upgrade
        AwaitingHello,  // registered; the first message must be Hello within kHelloDeadline
        Open,           // Hello accepted (or a Sprite v1 socket, which has none): messages go to their world
        Closing,        // a Close is on its way: nothing more is acted on, reads drain
        Finished,       // the loop was told, the registry, gauge and cap slot are released
    };

    WsSession(tcp::socket&& socket, NetworkShared& shared, NetworkThread& thread, ConnectionLimiter::Slot slot,
              std::shared_ptr<hns::PeerSink> sink, SchoolRights rights)
        : socket_(std::move(socket)),
          liveness_timer_(socket_.get_executor()),
          close_timer_(socket_.get_executor()),
          stall_timer_(socket_.get_executor()),
          shared_(shared),
          thread_(thread),
          id_(shared.next_connection.fetch_add(1)),
          reader_(protocol::v1::kMaxInboundFrameBytes),  // the larger limit until Hello says which
          budget_(shared.config.inbound_budget, SteadyClock::now()),
          window_(shared.config.max_delivery_lag),
          slot_(std::move(slot)),
          sink_(std::move(sink)),
          rights_(std::move(rights)) {}
    ~WsSession() {
        if (polled()) ::close(polled_fd_);  // finish() closes it; this only guards a session never finished
    }

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
                return self->finish("handshake failed");
            }
            self->socket_ = std::move(handshake->next_layer());
            self->on_open();
        });
    }

    // Called by the write scheduler on this session's thread.
    void flush() {
        if (state_ == State::Finished) return;
        if (write_waiting_) {
            // A close waits for the write in flight; a peer that never reads must not hold it forever.
            if (outbox_->close_requested()) arm_close_timer();
            return;
        }
        while (gather() && write_batch()) {
        }
    }

    // The one way a session ends: tells the loop, leaves the registry and the gauge, frees the cap slot.
    void finish(const char* why) {
        if (state_ == State::Finished) return;
        const auto keep_alive = shared_from_this();  // the poller may hold the last reference
        const State was = state_;
        state_ = State::Finished;
        close_socket();
        liveness_timer_.cancel();
        close_timer_.cancel();
        stall_timer_.cancel();
        batch_.clear();
        if (sink_) sink_->on_closed();  // the match forgets the socket (also when the upgrade failed)
        sink_.reset();
        if (was != State::Upgrading) {
            if (version_ == WireVersion::Arena || version_ == WireVersion::ArenaV5 || version_ == WireVersion::Schools)
                shared_.loop.post(cmd::Disconnect{id_});
            outbox_->request_close({CloseCode::Normal, "finished"});  // the loop's pushes become no-ops
            shared_.sessions.remove(id_);
            thread_.sessions.erase(id_);
            shared_.metrics.connection_closed(version_);
        }
        slot_.release();
        spdlog::debug("event=ws_finished connection={} reason=\"{}\"", id_, why);
    }

private:
    void on_open() {
        if (state_ != State::Upgrading) return;
        beast::error_code ec;
        socket_.non_blocking(true, ec);
        if (!ec) socket_.set_option(tcp::no_delay(true), ec);  // a Pong must not wait for an ACK
        if (!ec) socket_.set_option(net::socket_base::keep_alive(true), ec);
        if (ec) {
            spdlog::debug("event=ws_setup_failed error=\"{}\"", ec.message());
            return finish("socket setup failed");
        }
        // Dead peers behind a silent network go after the OS's keepalive probes, not hours later.
        const int idle_seconds = static_cast<int>(std::chrono::duration_cast<std::chrono::seconds>(kTcpKeepAliveIdle).count());
        ::setsockopt(socket_.native_handle(), IPPROTO_TCP, TCP_KEEPIDLE, &idle_seconds, sizeof idle_seconds);
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
        thread_.sessions.emplace(id_, weak_from_this());
        last_received_ = SteadyClock::now();
        if (sink_) {  // Sprite v1: no Hello; the match sends from now on
            state_ = State::Open;
            version_ = WireVersion::Sprite;
            reader_.set_max_message_bytes(kMaxSpriteInboundBytes);
            budget_ = InboundBudget(sprite_budget(shared_.config.inbound_budget), last_received_);
            shared_.metrics.connection_opened(version_);
            outbox_->open();
            arm_liveness(shared_.config.ping_interval);
            sink_->attach(std::make_shared<OutboxPeer>(outbox_));
        } else {
            state_ = State::AwaitingHello;
            shared_.metrics.connection_opened(WireVersion::None);
            arm_liveness(kHelloDeadline);
        }
        // Beast may have seen bytes arrive during the handshake: read once now, then wait.
        on_readable({});
    }

    // Waits for the socket to become readable, then reads it until a short read. Asio re-arms the
    // wait with one epoll_ctl where async_read_some would first try a recv that fails with EAGAIN:
    // the same kernel cost (bench/README.md), but no wasted read while a client floods.
    void wait_readable() {
        if (polled()) return;  // the poller reports the next arrival
        socket_.async_wait(tcp::socket::wait_read, beast::bind_front_handler(&WsSession::on_readable, shared_from_this()));
    }

    void on_readable(beast::error_code ec) {
        if (state_ == State::Finished) return;
        if (ec) return finish(ec.message().c_str());
        for (int reads = 0; reads < kMaxReadsPerWake; ++reads) {
            const std::size_t bytes = read_some(ec);
            if (ec == net::error::would_block) return wait_readable();
            if (ec) return finish(ec == net::error::eof ? "peer closed the connection" : "read failed");
            if (!consume(bytes)) return;
            // A short read emptied the socket: the next byte to arrive wakes the wait.
            if (bytes < read_buffer_.size()) return wait_readable();
        }
        // More is waiting, but other connections of the thread get a turn first.
        if (polled()) return thread_.reads.again(poll_token_);  // the next pass comes back to it
        net::post(socket_.get_executor(), [self = shared_from_this()] { self->on_readable({}); });
    }

    // Handles bytes just read; false when the session has ended.
    bool consume(std::size_t bytes) {
        last_received_ = SteadyClock::now();
        if (state_ == State::Closing) {
            closing_drained_ += bytes;
            if (closing_drained_ > closing_drain_limit_) {
                finish("peer kept sending after our close");
                return false;
            }
        } else if (acting() && !budget_.admit_bytes(bytes, last_received_)) {
            over_budget();
        }
        reader_.feed(protocol::ByteView(read_buffer_.data(), bytes));
        while (auto event = reader_.next()) {
            handle_event(*event);
            if (state_ == State::Finished) return false;
        }
        count_frames_in();
        if (replied_) {  // a Pong goes out now, not after the thread's other work
            replied_ = false;
            flush();
            if (state_ == State::Finished) return false;
        }
        if (reader_.skipped_bytes() > kMaxSkippedFrameBytes) {  // not worth a clean close any more
            finish("oversized frame past the skip limit");
            return false;
        }
        return true;
    }

    bool acting() const { return state_ == State::AwaitingHello || state_ == State::Open; }

    // Every frame costs the sender one message (its bytes were charged as they were read); a flood
    // is closed, not queued.
    bool within_budget() {
        if (!acting()) return false;
        if (budget_.admit_message(last_received_)) return true;
        over_budget();
        return false;
    }

    void over_budget() {
        shared_.metrics.budget_exceeded(version_);
        if (const auto skipped = shared_.budget_log.allow(SteadyClock::now()))
            spdlog::warn("event=ws_budget_exceeded connection={} version={} similar_events_not_logged={}", id_,
                         static_cast<int>(version_), *skipped);
        close(CloseCode::PolicyViolation, "message rate limit exceeded", kMaxAbuseDrainBytes);
    }

    // Inbound frames are counted once per read, not once per frame: the counters are shared atomics.
    void count_frames_in() {
        shared_.metrics.frames_in(version_, frames_in_, bytes_in_);
        frames_in_ = 0;
        bytes_in_ = 0;
    }

    void handle_event(const ws::Event& event) {
        using Kind = ws::Event::Kind;
        switch (event.kind) {
            case Kind::Message:
                ++frames_in_;
                bytes_in_ += event.payload.size();
                if (!within_budget()) return;
                if (sink_) return sink_->on_message(event.payload, event.text);
                return act(dispatch::on_message({version_, {id_, outbox_, thread_.index}, shared_.loop.tick(), &rights_}, event.payload, event.text));
            case Kind::Ping:
                if (!within_budget()) return;
                replied_ = true;
                outbox_->push_control(make_frame(event.payload, ws::Opcode::Pong));
                return;
            case Kind::Pong:
                within_budget();
                if (window_.on_pong(event.payload, last_received_)) on_reader_progress();
                return;
            case Kind::Close:
                peer_closed_ = true;
                if (close_sent_) return finish("close handshake complete");
                // Echo the peer's code, as RFC 6455 §5.5.1 asks.
                return close(event.close_code == ws::kNoStatusCode ? CloseCode::Normal : static_cast<CloseCode>(event.close_code), "");
            case Kind::TooBig:
                ++frames_in_;
                if (acting()) close(CloseCode::MessageTooBig, "frame larger than this protocol version allows");
                return;
            case Kind::ProtocolError:
                spdlog::debug("event=ws_protocol_error connection={} reason=\"{}\"", id_, event.reason);
                shared_.metrics.decode_rejected(version_);
                close(CloseCode::ProtocolError, "WebSocket protocol violation");
                return;
        }
    }

    void act(dispatch::Action action) {
        std::visit(Overloaded{
                       [](dispatch::Ignore&) {},
                       [&](dispatch::Reply& reply) {
                           replied_ = true;
                           outbox_->push_reliable(make_frame(reply.message));
                       },
                       [&](dispatch::Post& post) {
                           if (!shared_.loop.try_post(std::move(post.command))) close(CloseCode::TryAgainLater, "server is busy");
                       },
                       [&](dispatch::Promote& promote) {
                           count_frames_in();  // what came before Hello's end counts as "none"
                           version_ = promote.version;
                           state_ = State::Open;
                           reader_.set_max_message_bytes(promote.max_inbound_bytes);
                           if (version_ == WireVersion::ArenaV5) {
                               // Deltas skip rather than queue: the kernel must not hide stale Frames.
                               ::setsockopt(socket_.native_handle(), IPPROTO_TCP, TCP_NOTSENT_LOWAT, &kV5NotSentLowatBytes,
                                            sizeof kV5NotSentLowatBytes);
                           }
                           shared_.metrics.connection_promoted(version_);
                           arm_liveness(shared_.config.ping_interval);
                           spdlog::debug("event=hello connection={} version={}", id_, static_cast<int>(version_));
                           if (!shared_.loop.try_post(std::move(promote.join))) return close(CloseCode::TryAgainLater, "server is busy");
                           if (version_ == WireVersion::ArenaV5) enter_polled_reads();
                       },
                       [&](dispatch::Reject& reject) {
                           if (reject.malformed) shared_.metrics.decode_rejected(version_);
                           close(reject.code, reject.reason);
                       },
                   },
                   action);
    }

    // Closing goes through the outbox so the Close frame follows what is being written, never splits it.
    void close(CloseCode code, const char* reason, std::size_t drain_limit = kMaxCloseDrainBytes) {
        if (state_ == State::Finished) return;
        if (state_ != State::Closing) closing_drain_limit_ = drain_limit;
        if (state_ != State::Upgrading) state_ = State::Closing;
        outbox_->request_close({code, reason});
    }

    // Before Hello: the Hello deadline. After: a WebSocket Ping every interval, and a peer silent
    // for longer than the timeout (no pong, no frame) is closed.
    void arm_liveness(SteadyClock::duration after) {
        liveness_timer_.expires_after(after);
        liveness_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
            if (!ec) self->on_liveness();
        });
    }

    void on_liveness() {
        if (state_ == State::AwaitingHello) return close(CloseCode::PolicyViolation, "no Hello within 5 s");
        if (state_ != State::Open) return;
        if (SteadyClock::now() - last_received_ >= shared_.config.peer_timeout) {
            shared_.metrics.peer_timeout("silent");
            if (const auto skipped = shared_.timeout_log.allow(SteadyClock::now()))
                spdlog::info("event=ws_peer_silent connection={} similar_events_not_logged={}", id_, *skipped);
            return close(CloseCode::PolicyViolation, "no response to ping");
        }
        outbox_->push_control(ping_frame());
        arm_liveness(shared_.config.ping_interval);
    }

    // Takes what the outbox holds into the batch; false when there is nothing to write.
    bool gather() {
        const auto now = SteadyClock::now();
        note_window(now);
        const std::size_t room = window_.room(now);
        // Shut with frames unanswered behind the last Ping (the Pings in flight were at their bound
        // when they went): a Ping for them now, or the window would never open again.
        if (room == 0 && !close_sent_)
            if (auto payload = window_.cover(now)) batch_.push_back(make_frame(*payload, ws::Opcode::Ping));
        std::size_t bytes = 0;
        for (const auto& frame : batch_) bytes += frame->size();
        std::size_t lossy = 0;
        held_back_ = false;
        while (!close_sent_ && batch_.size() < kMaxFramesPerWrite && bytes < kMaxBytesPerWrite) {
            auto next = outbox_->next(lossy < room);
            if (next.close) {
                queue_close(*next.close);
                break;
            }
            if (!next.frame) {
                held_back_ = next.held_back;
                break;
            }
            lossy += next.lossy ? 1 : 0;
            bytes += next.frame->size();
            batch_.push_back(std::move(next.frame));
        }
        // Behind lossy frames, now and then, a Ping whose Pong will say the reader has read them.
        if (lossy > 0 && !close_sent_) {
            if (auto payload = window_.wrote(lossy, now)) batch_.push_back(make_frame(*payload, ws::Opcode::Ping));
            note_window(now);
        }
        if (held_back_) arm_stall_timer();  // a reader that never catches up is dropped like a full socket
        return !batch_.empty();
    }

    // The delivery window's state as the outbox and the feeds see it. Shut, lossy frames wait and
    // v5's skip rule treats the reader as a full socket; shut for long enough, a spectator feed
    // resyncs it; opened again after that, the tick ring keeps only its newest frame.
    void note_window(SteadyClock::time_point now) {
        const bool open = window_.open(now);
        if (!open && !window_shut_) {
            window_shut_ = true;
            shut_since_ = now;
        } else if (open && window_shut_) {
            window_shut_ = false;
            held_back_ = false;
            if (now - shut_since_ >= kReaderLaggingAfter) shared_.metrics.frames_dropped(version_, outbox_->keep_newest_tick());
        }
        const bool lagging = window_shut_ && now - shut_since_ >= kReaderLaggingAfter;
        if (lagging != reader_lagging_) {
            reader_lagging_ = lagging;
            outbox_->set_reader_lagging(lagging);
            if (lagging) shared_.metrics.reader_lagging();
        }
        if (outbox_->socket_full() != (write_waiting_ || window_shut_)) outbox_->set_socket_full(write_waiting_ || window_shut_);
    }

    // A Pong said the reader has read what was written before its Ping: it is not stalled, and
    // frames held back for it may go if the window has room again.
    void on_reader_progress() {
        last_write_progress_ = last_received_;
        if (!window_shut_ || !window_.open(last_received_)) return;
        note_window(last_received_);
        replied_ = true;  // the writer goes on at the end of this read
    }

    void queue_close(CloseRequest request) {
        close_sent_ = true;  // from here on the outbox has nothing more for us
        if (state_ != State::Finished) state_ = State::Closing;
        arm_close_timer();  // the peer gets kCloseGrace to answer our close frame
        if (!peer_closed_) shared_.metrics.close_sent(static_cast<std::uint16_t>(request.code));
        spdlog::debug("event=ws_close connection={} code={} reason=\"{}\"", id_, static_cast<int>(request.code), request.reason);
        close_frame_index_ = batch_.size();
        batch_.push_back(make_frame(ws::close_payload(static_cast<std::uint16_t>(request.code), request.reason), ws::Opcode::Close));
    }

    // One sendmsg for the whole batch; true when all of it went and the caller may gather more.
    bool write_batch() {
        std::array<net::const_buffer, kMaxFramesPerWrite + 2> buffers;  // + our Close, + an ack Ping
        std::size_t count = 0;
        for (const auto& frame : batch_) {
            const auto wire = frame->wire();
            buffers[count++] = net::buffer(wire.data(), wire.size());
        }
        buffers[0] += batch_offset_;
        beast::error_code ec;
        std::size_t written = write_some(std::span<const net::const_buffer>(buffers.data(), count), ec);
        if (ec == net::error::would_block) {
            written = 0;
        } else if (ec) {
            finish("write failed");
            return false;
        }
        if (written > 0 && !window_shut_) last_write_progress_ = SteadyClock::now();  // a lagging reader shows progress by its Pongs
        consume_written(written);
        if (state_ == State::Finished) return false;
        if (!batch_.empty()) {
            write_waiting_ = true;
            arm_stall_timer();
            wait_writable();
            return false;
        }
        if (stall_timer_armed_ && !held_back_) {  // the socket took everything: it is not stuck
            stall_timer_armed_ = false;
            stall_timer_.cancel();
        }
        return !close_written_;
    }

    // A peer that stops reading: once its socket has taken nothing for write_stall, it goes.
    void arm_stall_timer() {
        if (stall_timer_armed_) return;
        stall_timer_armed_ = true;
        last_write_progress_ = SteadyClock::now();
        stall_timer_.expires_after(shared_.config.write_stall);
        stall_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
            if (ec || !self->stall_timer_armed_) return;
            self->stall_timer_armed_ = false;
            self->on_stall_timer();
        });
    }

    void on_stall_timer() {
        if (state_ == State::Finished || (!write_waiting_ && !held_back_)) return;
        const auto idle = SteadyClock::now() - last_write_progress_;
        if (idle < shared_.config.write_stall) {  // it took some bytes meanwhile: look again later
            stall_timer_armed_ = true;
            stall_timer_.expires_after(shared_.config.write_stall - idle);
            stall_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
                if (ec || !self->stall_timer_armed_) return;
                self->stall_timer_armed_ = false;
                self->on_stall_timer();
            });
            return;
        }
        shared_.metrics.peer_timeout("write_stall");
        if (const auto skipped = shared_.timeout_log.allow(SteadyClock::now()))
            spdlog::info("event=ws_write_stall connection={} waiting={} similar_events_not_logged={}", id_,
                         write_waiting_ ? "socket" : "reader", *skipped);
        finish("peer stopped reading");
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
        if (!close_written_ || close_half_shut_) return;
        // Our Close is out: a peer that already sent its own, or whose stream is broken, is done.
        if (peer_closed_ || reader_.failed()) return finish("closed");
        // Otherwise end our side (FIN after the Close) and read on until its Close, EOF or the grace
        // timer: closing with its bytes unread would reset the connection and could lose our Close.
        close_half_shut_ = true;
        if (polled()) {
            ::shutdown(polled_fd_, SHUT_WR);
            return;
        }
        beast::error_code ignored;
        socket_.shutdown(tcp::socket::shutdown_send, ignored);
    }

    void on_writable(beast::error_code wait_ec) {
        write_waiting_ = false;
        outbox_->set_socket_full(window_shut_);
        if (state_ == State::Finished) return;
        if (wait_ec) return finish("socket failed while waiting to write");
        if (write_batch()) flush();
    }

    void wait_writable() {
        outbox_->set_socket_full(true);
        if (!polled()) {
            socket_.async_wait(tcp::socket::wait_write, [self = shared_from_this()](beast::error_code ec) { self->on_writable(ec); });
            return;
        }
        if (!thread_.reads.want_write(poll_token_, true)) finish("socket failed while waiting to write");
    }

    // Arena v5 after Hello: one Input per tick would wake the thread 20 times a second per client.
    // The socket leaves Asio's reactor (whose edge-triggered watch wakes on every arrival, waited
    // for or not) for the thread's poller, which reads every v5 socket of the thread in one pass.
    void enter_polled_reads() {
        if (write_waiting_ || state_ != State::Open) return;  // an Asio wait is pending on it: it stays as it is
        beast::error_code ec;
        const auto protocol = socket_.local_endpoint(ec).protocol();
        if (ec) return;
        const int fd = socket_.release(ec);
        if (ec) return;
        poll_token_ = thread_.reads.add(fd, shared_from_this());
        if (poll_token_ != 0) {
            polled_fd_ = fd;
            shared_.metrics.polled_socket(true);
            return;
        }
        socket_.assign(protocol, fd, ec);  // the poller refused it: back to Asio
        if (ec) {
            ::close(fd);
            finish("socket setup failed");
        }
    }

    void on_polled(bool readable, bool writable) override {
        if (writable && write_waiting_) {
            thread_.reads.want_write(poll_token_, false);
            on_writable({});
        }
        if (readable && state_ != State::Finished) on_readable({});
    }

    bool polled() const { return polled_fd_ >= 0; }

    std::size_t read_some(beast::error_code& ec) {
        if (!polled()) return socket_.read_some(net::buffer(read_buffer_), ec);
        for (;;) {
            const ssize_t n = ::recv(polled_fd_, read_buffer_.data(), read_buffer_.size(), MSG_DONTWAIT);
            if (n > 0) {
                ec = {};
                return static_cast<std::size_t>(n);
            }
            if (n == 0) {
                ec = net::error::eof;
                return 0;
            }
            if (errno == EINTR) continue;
            ec = errno == EAGAIN || errno == EWOULDBLOCK ? beast::error_code(net::error::would_block)
                                                         : beast::error_code(errno, boost::system::system_category());
            return 0;
        }
    }

    std::size_t write_some(std::span<const net::const_buffer> buffers, beast::error_code& ec) {
        if (!polled()) return socket_.write_some(buffers, ec);
        std::array<iovec, kMaxFramesPerWrite + 2> iov{};
        const std::size_t count = std::min(buffers.size(), iov.size());
        for (std::size_t i = 0; i < count; ++i) iov[i] = {const_cast<void*>(buffers[i].data()), buffers[i].size()};
        msghdr message{};
        message.msg_iov = iov.data();
        message.msg_iovlen = count;
        for (;;) {
            const ssize_t n = ::sendmsg(polled_fd_, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
            if (n >= 0) {
                ec = {};
                return static_cast<std::size_t>(n);
            }
            if (errno == EINTR) continue;
            ec = errno == EAGAIN || errno == EWOULDBLOCK ? beast::error_code(net::error::would_block)
                                                         : beast::error_code(errno, boost::system::system_category());
            return 0;
        }
    }

    void arm_close_timer() {
        if (close_timer_armed_) return;
        close_timer_armed_ = true;
        close_timer_.expires_after(kCloseGrace);
        close_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
            if (!ec) self->finish("close grace expired");
        });
    }

    void close_socket() {
        if (polled()) {
            thread_.reads.remove(poll_token_);
            shared_.metrics.polled_socket(false);
            ::shutdown(polled_fd_, SHUT_RDWR);
            ::close(polled_fd_);
            polled_fd_ = -1;
            poll_token_ = 0;
            return;
        }
        beast::error_code ignored;
        socket_.shutdown(tcp::socket::shutdown_both, ignored);
        socket_.close(ignored);
    }

    tcp::socket socket_;                 // until it is polled: then released, and polled_fd_ is the socket
    int polled_fd_ = -1;
    ReadPoller::Token poll_token_ = 0;
    net::steady_timer liveness_timer_;  // Hello deadline, then pings and the silence check
    net::steady_timer close_timer_;     // our Close's grace period
    net::steady_timer stall_timer_;     // a peer that stopped reading
    NetworkShared& shared_;
    NetworkThread& thread_;
    const ConnectionId id_;
    std::shared_ptr<Outbox> outbox_;
    State state_ = State::Upgrading;
    WireVersion version_ = WireVersion::None;
    ws::FrameReader reader_;
    InboundBudget budget_;
    DeliveryWindow window_;  // how far behind the reader is, by its Pongs
    ConnectionLimiter::Slot slot_;
    std::shared_ptr<hns::PeerSink> sink_;  // a hide-and-seek socket's match (or replay viewer)
    const SchoolRights rights_;            // v4: the schools this session may pause or speed up
    std::array<std::uint8_t, kReadBufferBytes> read_buffer_{};
    SteadyClock::time_point last_received_{};
    SteadyClock::time_point last_write_progress_{};
    std::size_t closing_drained_ = 0;               // bytes read since we started closing
    std::size_t closing_drain_limit_ = kMaxCloseDrainBytes;
    std::size_t frames_in_ = 0;                     // counted in this read, reported at its end
    std::size_t bytes_in_ = 0;
    std::vector<Frame> batch_;                      // frames being written, in order
    std::size_t batch_offset_ = 0;                  // bytes of batch_.front() already sent
    std::optional<std::size_t> close_frame_index_;  // where our Close sits in batch_
    // The writer: a reply to flush now, a full socket, the timers armed.
    bool replied_ = false;
    bool write_waiting_ = false;
    bool close_timer_armed_ = false;
    bool stall_timer_armed_ = false;
    bool window_shut_ = false;     // the reader is behind: lossy frames wait
    bool reader_lagging_ = false;  // shut for kReaderLaggingAfter: the feeds resync it
    SteadyClock::time_point shut_since_{};
    bool held_back_ = false;       // lossy frames are waiting for the reader (the stall timer runs)
    // The close handshake, as facts: ours queued, ours written (and our side shut), the peer's seen.
    bool close_sent_ = false;
    bool close_written_ = false;
    bool close_half_shut_ = false;
    bool peer_closed_ = false;
};

void WriteScheduler::mark_ready(std::shared_ptr<WsSession> session) {
    std::unique_lock lock(mutex_);
    if (!open_) return;
    ready_.push_back(std::move(session));
    post_drain(lock);
}

void WriteScheduler::wake_all(std::vector<std::shared_ptr<void>>& sessions) {
    std::unique_lock lock(mutex_);
    if (!open_) return;
    for (auto& session : sessions) ready_.push_back(std::static_pointer_cast<WsSession>(std::move(session)));
    post_drain(lock);
}

void WriteScheduler::shut() {
    std::lock_guard lock(mutex_);
    open_ = false;
    ready_.clear();
    draining_.clear();
    drained_ = 0;
}

void WriteScheduler::post_drain(std::unique_lock<std::mutex>& lock) {
    if (drain_posted_) return;
    drain_posted_ = true;
    lock.unlock();
    net::post(ioc_, [this] { drain(); });
}

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

void start_ws_session(tcp::socket&& socket, http::request<http::string_body> request, NetworkShared& shared,
                      NetworkThread& thread, ConnectionLimiter::Slot slot, std::shared_ptr<hns::PeerSink> sink,
                      SchoolRights rights) {
    std::make_shared<WsSession>(std::move(socket), shared, thread, std::move(slot), std::move(sink), std::move(rights))
        ->run(std::move(request));
}

void finish_ws_sessions(NetworkThread& thread, const char* why) {
    std::vector<std::shared_ptr<WsSession>> open;
    for (auto& [id, weak] : thread.sessions)
        if (auto session = weak.lock()) open.push_back(std::move(session));
    for (auto& session : open) session->finish(why);
    thread.sessions.clear();
}

}  // namespace hschool::server
