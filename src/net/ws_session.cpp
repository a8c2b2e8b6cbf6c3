// The session's life: the upgrade, the greeting, liveness pings, closing and finishing; and the
// WsConnection a game holds for it.
#include "net/ws_session.hpp"

#include <boost/asio/write.hpp>
#include <boost/beast/core/error.hpp>

#include <algorithm>
#include <atomic>

#include "net/close_codes.hpp"
#include "net/ws_handshake.hpp"
#include "util/log.hpp"

namespace hschool::net {

namespace asio = boost::asio;
namespace beast = boost::beast;

namespace {

// The server's WebSocket Ping: framed once, the same bytes for every connection.
const Frame& ping_frame() {
    static const Frame frame = make_frame({}, ws::Opcode::Ping);
    return frame;
}

BudgetLimits raised_to(const BudgetLimits& configured, const BudgetLimits& floor) {
    return {std::max(configured.messages_per_second, floor.messages_per_second), std::max(configured.message_burst, floor.message_burst),
            std::max(configured.bytes_per_second, floor.bytes_per_second), std::max(configured.byte_burst, floor.byte_burst)};
}

// A game's view of a session: it sends through the outbox (thread-safe from any thread) and holds
// no strong reference to the session, which may be gone by the time a match sends.
class SessionConnection final : public WsConnection {
public:
    SessionConnection(std::weak_ptr<WsSession> session, ConnectionId id, std::weak_ptr<Outbox> outbox, std::uint32_t shard)
        : session_(std::move(session)), id_(id), outbox_(std::move(outbox)), shard_(shard) {}

    ConnectionId id() const override { return id_; }
    ConnectionRef ref() const override { return {id_, outbox_.lock(), shard_}; }

    bool send(protocol::ByteView message, bool text) override {
        auto outbox = outbox_.lock();
        return outbox && outbox->push_reliable(make_frame(message, text ? ws::Opcode::Text : ws::Opcode::Binary));
    }
    void close(std::uint16_t code, const char* reason) override {
        if (auto outbox = outbox_.lock()) outbox->request_close({code, reason, std::nullopt});
    }

    // The shared frame goes in wrapped in this socket's own handle, whose release (written, dropped
    // or the session gone) takes its bytes off the backlog: the count covers the writer's batch too.
    bool send_shared(const SharedMessagePtr& message) override {
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
    void drop_shared_backlog() override {
        if (auto outbox = outbox_.lock()) outbox->clear_stream();
    }
    bool reader_lagging() const override {
        auto outbox = outbox_.lock();
        return outbox && outbox->reader_lagging();
    }
    bool writer_behind(std::size_t frames) override {
        auto outbox = outbox_.lock();
        return outbox && outbox->writer_behind(frames);
    }
    void on_writer_caught_up(std::function<void()> caught_up) override {
        if (auto outbox = outbox_.lock()) outbox->on_writer_caught_up(std::move(caught_up));
    }

    void speak(const WsProtocol& protocol) override {
        if (auto session = session_.lock()) session->speak(protocol);
    }
    void reply(protocol::ByteView message) override {
        if (auto session = session_.lock()) session->reply(message);
    }

private:
    std::weak_ptr<WsSession> session_;
    const ConnectionId id_;
    std::weak_ptr<Outbox> outbox_;
    const std::uint32_t shard_;
    // Shared with the handles, which may outlive this connection in a writer's batch.
    std::shared_ptr<std::atomic<std::size_t>> backlog_ = std::make_shared<std::atomic<std::size_t>>(0);
};

}  // namespace

WsSession::WsSession(tcp::socket&& socket, NetworkShared& shared, NetworkThread& thread, ConnectionLimiter::Slot slot,
                     const WsEndpoint& endpoint, std::shared_ptr<WsHandler> handler)
    : socket_(std::move(socket)),
      liveness_timer_(socket_.asio().get_executor()),
      close_timer_(socket_.asio().get_executor()),
      stall_timer_(socket_.asio().get_executor()),
      shared_(shared),
      thread_(thread),
      endpoint_(endpoint),
      id_(shared.next_connection.fetch_add(1)),
      handler_(std::move(handler)),
      reader_(endpoint.protocol.max_message_bytes),
      budget_(shared.config.inbound_budget, Clock::now()),
      window_(shared.config.max_delivery_lag),
      slot_(std::move(slot)) {}

void WsSession::run(std::string accept_key) {
    // The answer must be written within the handshake's time; on_upgraded re-arms this timer.
    liveness_timer_.expires_after(kHandshakeTimeout);
    liveness_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
        if (!ec && self->state_ == State::Upgrading) self->finish("handshake timed out", CloseCause::HandshakeFailed);
    });
    auto answer = std::make_shared<const std::string>(ws_switching_protocols(accept_key));
    const asio::const_buffer bytes = asio::buffer(*answer);
    asio::async_write(socket_.asio(), bytes, [self = shared_from_this(), answer](beast::error_code ec, std::size_t) {
        if (ec) {
            logging::debug("event=ws_accept_failed error=\"{}\"", ec.message());
            return self->finish("handshake failed", CloseCause::HandshakeFailed);
        }
        self->on_upgraded();
    });
}

void WsSession::on_upgraded() {
    if (state_ != State::Upgrading) return;
    beast::error_code ec;
    if (!socket_.configure(ec)) {
        logging::debug("event=ws_setup_failed error=\"{}\"", ec.message());
        return finish("socket setup failed", CloseCause::SetupFailed);
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
    thread_.sessions.emplace(id_, weak);
    last_received_ = Clock::now();
    const bool greeting = endpoint_.greeting_within.count() > 0;
    state_ = greeting ? State::Greeting : State::Open;
    adopt(endpoint_.protocol);
    shared_.metrics.connection_opened(tag_);
    if (greeting) {
        arm_liveness(endpoint_.greeting_within);
    } else {  // no greeting: the game may send from now on
        outbox_->open();
        arm_liveness(shared_.config.ping_interval);
    }
    handler_->on_open(std::make_shared<SessionConnection>(weak, id_, outbox_, thread_.index));
    if (state_ == State::Finished) return;
    // The client may have sent frames right after its request: read once now, then wait.
    on_readable({});
}

// The limits of a protocol; its budget starts afresh only when the limits change.
void WsSession::adopt(const WsProtocol& protocol) {
    tag_ = protocol.tag;
    reader_.set_max_message_bytes(protocol.max_message_bytes);
    const BudgetLimits limits = raised_to(shared_.config.inbound_budget, protocol.budget_floor);
    if (limits != budget_limits_) {
        budget_limits_ = limits;
        budget_ = InboundBudget(limits, last_received_);
    }
    // Stale frames skip rather than queue: the kernel must not hide them.
    if (protocol.not_sent_lowat_bytes > 0) socket_.limit_unsent(protocol.not_sent_lowat_bytes);
    if (protocol.polled_reads) enter_polled_reads();
}

void WsSession::speak(const WsProtocol& protocol) {
    if (state_ != State::Greeting) return;
    count_frames_in();  // what came before the greeting's end counts as no protocol
    state_ = State::Open;
    adopt(protocol);
    shared_.metrics.connection_spoke(tag_);
    arm_liveness(shared_.config.ping_interval);
    logging::debug("event=greeting connection={} protocol={}", id_, static_cast<int>(tag_));
}

void WsSession::reply(protocol::ByteView message) {
    if (state_ == State::Finished) return;
    replied_ = true;  // written at the end of this read
    outbox_->push_reliable(make_frame(message));
}

void WsSession::finish(const char* why, std::optional<CloseCause> dropped) {
    if (state_ == State::Finished) return;
    if (dropped) closed_by_server(*dropped, 0);
    const auto keep_alive = shared_from_this();  // the poller may hold the last reference
    const State was = state_;
    state_ = State::Finished;
    close_socket();
    liveness_timer_.cancel();
    close_timer_.cancel();
    stall_timer_.cancel();
    batch_.clear();
    if (handler_) handler_->on_closed();  // also when the upgrade failed
    handler_.reset();
    if (was != State::Upgrading) {
        outbox_->request_close({close_code::kNormal, "finished", std::nullopt});  // later pushes become no-ops
        shared_.sessions.remove(id_);
        thread_.sessions.erase(id_);
        shared_.metrics.connection_closed(tag_);
    }
    slot_.release();
    logging::debug("event=ws_finished connection={} reason=\"{}\"", id_, why);
}

// Closing goes through the outbox so the Close frame follows what is being written, never splits it.
void WsSession::close(std::uint16_t code, const char* reason, CloseCause cause, std::size_t drain_limit) {
    if (state_ == State::Finished) return;
    if (state_ != State::Closing) closing_drain_limit_ = drain_limit;
    if (state_ != State::Upgrading) state_ = State::Closing;
    outbox_->request_close({code, reason, cause});
}

void WsSession::closed_by_server(CloseCause cause, std::uint16_t code) {
    if (closed_by_server_) return;
    closed_by_server_ = true;
    shared_.metrics.server_closed(cause);
    if (const auto skipped = shared_.close_log.allow(Clock::now()))
        logging::info("event=ws_server_close connection={} reason={} code={} similar_events_not_logged={}", id_, label(cause), code, *skipped);
}

// While greeting: its deadline. After: a WebSocket Ping every interval, and a peer silent for
// longer than the timeout (no pong, no frame) is closed.
void WsSession::arm_liveness(Clock::duration after) {
    liveness_timer_.expires_after(after);
    liveness_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
        if (!ec) self->on_liveness();
    });
}

void WsSession::on_liveness() {
    if (state_ == State::Greeting) return close(close_code::kPolicyViolation, endpoint_.greeting_deadline_reason, CloseCause::GreetingTimeout);
    if (state_ != State::Open) return;
    if (Clock::now() - last_received_ >= shared_.config.peer_timeout) {
        shared_.metrics.peer_timeout("silent");
        if (const auto skipped = shared_.timeout_log.allow(Clock::now()))
            logging::info("event=ws_peer_silent connection={} similar_events_not_logged={}", id_, *skipped);
        return close(close_code::kPolicyViolation, "no response to ping", CloseCause::PeerSilent);
    }
    outbox_->push_control(ping_frame());
    arm_liveness(shared_.config.ping_interval);
}

void WsSession::arm_close_timer() {
    if (close_timer_armed_) return;
    close_timer_armed_ = true;
    close_timer_.expires_after(kCloseGrace);
    close_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
        if (!ec) self->finish("close grace expired");
    });
}

void WsSession::close_socket() {
    if (socket_.close(thread_.reads)) shared_.metrics.polled_socket(false);
}

void start_ws_session(tcp::socket&& socket, std::string accept_key, NetworkShared& shared, NetworkThread& thread,
                      ConnectionLimiter::Slot slot, const WsEndpoint& endpoint, std::shared_ptr<WsHandler> handler) {
    std::make_shared<WsSession>(std::move(socket), shared, thread, std::move(slot), endpoint, std::move(handler))
        ->run(std::move(accept_key));
}

void finish_ws_sessions(NetworkThread& thread, const char* why) {
    std::vector<std::shared_ptr<WsSession>> open;
    for (auto& [id, weak] : thread.sessions)
        if (auto session = weak.lock()) open.push_back(std::move(session));
    for (auto& session : open) session->finish(why, CloseCause::Shutdown);
    thread.sessions.clear();
}

}  // namespace hschool::net
