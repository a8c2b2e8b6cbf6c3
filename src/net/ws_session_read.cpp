// The session's reading: bytes from the socket (woken by Asio, or in the poller's batches), the
// inbound budget, and whole messages handed to the game's handler.

#include <boost/asio/post.hpp>
#include <boost/beast/core/bind_handler.hpp>

#include "net/close_codes.hpp"
#include "net/ws_session.hpp"
#include "util/log.hpp"

namespace hschool::net {

namespace beast = boost::beast;

// Waits for the socket to become readable, then reads it until a short read. Asio re-arms the
// wait with one epoll_ctl where async_read_some would first try a recv that fails with EAGAIN:
// the same kernel cost (bench/README.md), but no wasted read while a client floods.
void WsSession::wait_readable() {
    if (socket_.polled()) return;  // the poller reports the next arrival
    socket_.asio().async_wait(tcp::socket::wait_read, beast::bind_front_handler(&WsSession::on_readable, shared_from_this()));
}

void WsSession::on_readable(error_code ec) {
    if (state_ == State::Finished) return;
    if (ec) return finish(ec.message().c_str());
    for (int reads = 0; reads < kMaxReadsPerWake; ++reads) {
        const std::size_t bytes = socket_.read_some(read_buffer_, ec);
        if (ec == asio::error::would_block) return wait_readable();
        if (ec) return finish(ec == asio::error::eof ? "peer closed the connection" : "read failed");
        if (!consume(bytes)) return;
        // A short read emptied the socket: the next byte to arrive wakes the wait.
        if (bytes < read_buffer_.size()) return wait_readable();
    }
    // More is waiting, but other connections of the thread get a turn first.
    if (socket_.polled()) return socket_.poll_again(thread_.reads);  // the next pass comes back to it
    asio::post(socket_.asio().get_executor(), [self = shared_from_this()] { self->on_readable({}); });
}

// Handles bytes just read; false when the session has ended.
bool WsSession::consume(std::size_t bytes) {
    last_received_ = Clock::now();
    if (state_ == State::Closing) {
        closing_drained_ += bytes;
        if (closing_drained_ > closing_drain_limit_) {
            finish("peer kept sending after our close", CloseCause::SkipLimit);
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
        finish("oversized frame past the skip limit", CloseCause::SkipLimit);
        return false;
    }
    return true;
}

// Every frame costs the sender one message (its bytes were charged as they were read); a flood
// is closed, not queued.
bool WsSession::within_budget() {
    if (!acting()) return false;
    if (budget_.admit_message(last_received_)) return true;
    over_budget();
    return false;
}

void WsSession::over_budget() {
    shared_.metrics.budget_exceeded(tag_);
    if (const auto skipped = shared_.budget_log.allow(Clock::now()))
        logging::warn("event=ws_budget_exceeded connection={} protocol={} similar_events_not_logged={}", id_, static_cast<int>(tag_),
                     *skipped);
    close(close_code::kPolicyViolation, "message rate limit exceeded", CloseCause::OverBudget, kMaxAbuseDrainBytes);
}

// Inbound frames are counted once per read, not once per frame: the counters are shared atomics.
void WsSession::count_frames_in() {
    shared_.metrics.frames_in(tag_, frames_in_, bytes_in_);
    frames_in_ = 0;
    bytes_in_ = 0;
}

void WsSession::handle_event(const ws::Event& event) {
    using Kind = ws::Event::Kind;
    switch (event.kind) {
        case Kind::Message:
            ++frames_in_;
            bytes_in_ += event.payload.size();
            if (!within_budget()) return;
            handler_->on_message(event.payload, event.text);
            // The handler closed it (a malformed message, a full inbox): nothing after is acted on.
            if (acting() && outbox_->close_requested()) {
                closing_drain_limit_ = kMaxCloseDrainBytes;
                state_ = State::Closing;
            }
            return;
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
            return close(event.close_code == ws::kNoStatusCode ? close_code::kNormal : event.close_code, "", CloseCause::Normal);
        case Kind::TooBig:
            ++frames_in_;
            if (acting()) close(close_code::kMessageTooBig, "frame larger than this protocol version allows", CloseCause::TooBig);
            return;
        case Kind::ProtocolError:
            logging::debug("event=ws_protocol_error connection={} reason=\"{}\"", id_, event.reason);
            shared_.metrics.protocol_error(tag_);
            close(close_code::kProtocolError, "WebSocket protocol violation", CloseCause::ProtocolError);
            return;
    }
}

// A protocol whose clients send one small message a tick (arena v5) would wake the thread 20 times
// a second per client. The socket leaves Asio's reactor (whose edge-triggered watch wakes on every
// arrival, waited for or not) for the thread's poller, which reads all such sockets in one pass.
void WsSession::enter_polled_reads() {
    if (write_waiting_ || state_ != State::Open || socket_.polled()) return;  // an Asio wait is pending: it stays
    bool failed = false;
    if (socket_.enter_poller(thread_.reads, shared_from_this(), failed)) return shared_.metrics.polled_socket(true);
    if (failed) finish("socket setup failed", CloseCause::SetupFailed);
}

void WsSession::on_polled(bool readable, bool writable) {
    if (writable && write_waiting_) {
        socket_.want_write(thread_.reads, false);
        on_writable({});
    }
    if (readable && state_ != State::Finished) on_readable({});
}

}  // namespace hschool::net
