// The session's writing: batches gathered from the outbox into one sendmsg, the delivery window
// that holds lossy frames back from a reader that is behind, the stall rule, and the per-thread
// scheduler that writes every ready session in one pass.

#include <boost/asio/post.hpp>
#include <boost/beast/core/error.hpp>

#include <array>
#include <span>
#include <thread>

#include "net/ws_session.hpp"
#include "util/log.hpp"

namespace hschool::net {

namespace beast = boost::beast;

void WsSession::flush() {
    if (state_ == State::Finished) return;
    if (write_waiting_) {
        // A close waits for the write in flight; a peer that never reads must not hold it forever.
        if (outbox_->close_requested()) arm_close_timer();
        return;
    }
    while (gather() && write_batch()) {
    }
}

// Takes what the outbox holds into the batch; false when there is nothing to write.
bool WsSession::gather() {
    const auto now = Clock::now();
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
        if (shared_.config.test_write_delay.count() > 0) std::this_thread::sleep_for(shared_.config.test_write_delay);
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
void WsSession::note_window(Clock::time_point now) {
    const bool open = window_.open(now);
    if (!open && !window_shut_) {
        window_shut_ = true;
        shut_since_ = now;
    } else if (open && window_shut_) {
        window_shut_ = false;
        held_back_ = false;
        if (now - shut_since_ >= kReaderLaggingAfter) shared_.metrics.frames_dropped(tag_, outbox_->keep_newest_tick());
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
void WsSession::on_reader_progress() {
    last_write_progress_ = last_received_;
    if (!window_shut_ || !window_.open(last_received_)) return;
    note_window(last_received_);
    replied_ = true;  // the writer goes on at the end of this read
}

void WsSession::queue_close(CloseRequest request) {
    close_sent_ = true;  // from here on the outbox has nothing more for us
    if (state_ != State::Finished) state_ = State::Closing;
    arm_close_timer();  // the peer gets kCloseGrace to answer our close frame
    if (!peer_closed_) {  // an echo of the peer's Close is its closing, not ours
        shared_.metrics.close_sent(request.code);
        closed_by_server(request.cause.value_or(cause_of_code(request.code)), request.code);
    }
    logging::debug("event=ws_close connection={} code={} reason=\"{}\"", id_, request.code, request.reason);
    close_frame_index_ = batch_.size();
    batch_.push_back(make_frame(ws::close_payload(request.code, request.reason), ws::Opcode::Close));
}

// One sendmsg for the whole batch; true when all of it went and the caller may gather more.
bool WsSession::write_batch() {
    std::array<asio::const_buffer, kMaxFramesPerWrite + 2> buffers;  // + our Close, + an ack Ping
    std::size_t count = 0;
    for (const auto& frame : batch_) {
        const auto wire = frame->wire();
        buffers[count++] = asio::buffer(wire.data(), wire.size());
    }
    buffers[0] += batch_offset_;
    error_code ec;
    std::size_t written = socket_.write_some(std::span<const asio::const_buffer>(buffers.data(), count), ec);
    if (ec == asio::error::would_block) {
        written = 0;
    } else if (ec) {
        finish("write failed", CloseCause::WriteFailed);
        return false;
    }
    if (written > 0 && !window_shut_) last_write_progress_ = Clock::now();  // a lagging reader shows progress by its Pongs
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
void WsSession::arm_stall_timer() {
    if (stall_timer_armed_) return;
    stall_timer_armed_ = true;
    last_write_progress_ = Clock::now();
    stall_timer_.expires_after(shared_.config.write_stall);
    stall_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
        if (ec || !self->stall_timer_armed_) return;
        self->stall_timer_armed_ = false;
        self->on_stall_timer();
    });
}

void WsSession::on_stall_timer() {
    if (state_ == State::Finished || (!write_waiting_ && !held_back_)) return;
    const auto idle = Clock::now() - last_write_progress_;
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
    if (const auto skipped = shared_.timeout_log.allow(Clock::now()))
        logging::info("event=ws_write_stall connection={} waiting={} similar_events_not_logged={}", id_,
                     write_waiting_ ? "socket" : "reader", *skipped);
    finish("peer stopped reading", CloseCause::WriteStall);
}

void WsSession::consume_written(std::size_t written) {
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
    if (frames > 0) shared_.metrics.frames_out(tag_, frames, payload_bytes);
    if (!close_written_ || close_half_shut_) return;
    // Our Close is out: a peer that already sent its own, or whose stream is broken, is done.
    if (peer_closed_ || reader_.failed()) return finish("closed");
    // Otherwise end our side (FIN after the Close) and read on until its Close, EOF or the grace
    // timer: closing with its bytes unread would reset the connection and could lose our Close.
    close_half_shut_ = true;
    socket_.shutdown_send();
}

void WsSession::on_writable(error_code wait_ec) {
    write_waiting_ = false;
    outbox_->set_socket_full(window_shut_);
    if (state_ == State::Finished) return;
    if (wait_ec) return finish("socket failed while waiting to write", CloseCause::WriteFailed);
    if (write_batch()) flush();
}

void WsSession::wait_writable() {
    outbox_->set_socket_full(true);
    if (!socket_.polled()) {
        socket_.asio().async_wait(tcp::socket::wait_write, [self = shared_from_this()](beast::error_code ec) { self->on_writable(ec); });
        return;
    }
    if (!socket_.want_write(thread_.reads, true)) finish("socket failed while waiting to write", CloseCause::WriteFailed);
}

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
    asio::post(ioc_, [this] { drain(); });
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
    if (drained_ < draining_.size()) asio::post(ioc_, [this] { drain(); });
}

}  // namespace hschool::net
