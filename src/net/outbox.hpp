#pragma once
// Per-connection outbound queues: a drop-oldest ring of tick frames, a reliable queue that
// tick frames can never crowd out, and a stream lane whose sender resyncs it itself. Filled by
// the loop thread, match threads and the session's receive path, drained by the session's
// writer, one write in flight.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "protocol/bytes.hpp"
#include "net/close_cause.hpp"
#include "net/ws_frame.hpp"

namespace hschool::net {

// A message as it goes on the wire, WebSocket header included: framed once, then shared by
// every connection that sends it (server frames are unmasked, so the bytes are the same for all).
class WireFrame {
public:
    WireFrame(ws::Opcode opcode, protocol::ByteView message)
        : wire_(ws::encode_frame(opcode, message)), payload_at_(wire_.size() - message.size()) {}
    // A message encoded behind ws::kServerHeaderRoom bytes of room (see framed_in_place).
    WireFrame(ws::Opcode opcode, protocol::Bytes&& room_then_message)
        : wire_(std::move(room_then_message)), begin_(ws::write_header_before(opcode, wire_, ws::kServerHeaderRoom)),
          payload_at_(ws::kServerHeaderRoom) {}
    protocol::ByteView wire() const { return protocol::ByteView(wire_).subspan(begin_); }
    protocol::ByteView payload() const { return protocol::ByteView(wire_).subspan(payload_at_); }
    std::size_t size() const { return wire_.size() - begin_; }

private:
    protocol::Bytes wire_;
    std::size_t begin_ = 0;
    std::size_t payload_at_;
};

using Frame = std::shared_ptr<const WireFrame>;

inline Frame make_frame(protocol::ByteView message, ws::Opcode opcode = ws::Opcode::Binary) {
    return std::make_shared<const WireFrame>(opcode, message);
}

// A binary frame whose message encode(bytes) appends to the buffer it is given: encoded once,
// straight behind the room for its header, with no copy.
template <class Encode>
Frame framed_in_place(Encode&& encode) {
    protocol::Bytes buffer(ws::kServerHeaderRoom);
    encode(buffer);
    return std::make_shared<const WireFrame>(ws::Opcode::Binary, std::move(buffer));
}

struct CloseRequest {
    std::uint16_t code = 0;  // RFC 6455 close code (close_codes.hpp)
    std::string reason;  // owned: hide-and-seek closes carry texts built at run time
    std::optional<CloseCause> cause;  // for /metrics and the log; the code's when unset
};

class Outbox {
public:
    // wake is called (from any thread) when the writer is idle and there is something to do.
    explicit Outbox(std::function<void()> wake);

    // Welcome opens the outbox: reliable frames pushed earlier wait behind it.
    void push_welcome(Frame welcome);
    // Opens the outbox without a Welcome (protocols with none: Sprite v1 sockets).
    void open();
    // False when the reliable bound is exceeded; the outbox then asks the session to close: 1008
    // when the socket is full (the reader is slow), 1013 when the writer had not run (the server is).
    bool push_reliable(Frame frame);
    // WebSocket Ping/Pong frames: not application messages, so they go out even before Welcome.
    // False when more than kMaxControlFrames wait; the outbox then asks the session to close.
    bool push_control(Frame frame);
    // Tick frames are lossy: when the ring is full the oldest goes. Returns frames dropped (0 or 1).
    std::size_t push_tick(Frame frame);
    // Stream frames (a retained-mode diff shared by many sockets): never dropped one by one and
    // never a reason to close; the sender bounds the lane and clears it whole to resync the viewer.
    // False when the outbox is closing.
    bool push_stream(Frame frame);
    // v5 delta Frames: never dropped (each is coded against the one before); the sender skips a
    // connection whose lane is full instead. False when the outbox is closed or not yet welcomed.
    bool push_delta(Frame frame);
    // Drops the stream frames the writer has not taken yet; returns how many.
    std::size_t clear_stream();
    // Drops every waiting tick frame but the newest (a reader that was behind skips to it); returns how many.
    std::size_t keep_newest_tick();
    // Asks the session to close after what is already being written; first request wins.
    void request_close(CloseRequest request);

    struct Next {
        Frame frame;                        // set when there is a frame to write
        std::optional<CloseRequest> close;  // set when the session should close now
        bool lossy = false;                 // the frame is a tick, stream or delta frame
        bool held_back = false;             // nothing to write, but lossy frames wait for the reader
    };
    // The writer's next step; when it returns neither, the writer is idle until the next wake.
    // Without `lossy_allowed` (the reader lags, delivery_window.hpp) only control and reliable
    // frames come out; tick, stream and delta frames wait, and the ring and the senders skip them.
    Next next(bool lossy_allowed = true);

    bool close_requested() const;
    std::size_t queued_ticks() const;
    std::size_t queued_reliable() const;
    std::size_t queued_stream() const;
    std::size_t queued_deltas() const;
    // Set by the session while its socket is full and it waits for room: the client is slow, not
    // the thread (a v5 connection is then skipped sooner, skip_v5_frame).
    void set_socket_full(bool full);
    bool socket_full() const { return socket_full_.load(std::memory_order_relaxed); }
    // Set by the session while its delivery window is shut: a spectator feed resyncs such a reader.
    void set_reader_lagging(bool lagging) { reader_lagging_.store(lagging, std::memory_order_relaxed); }
    bool reader_lagging() const { return reader_lagging_.load(std::memory_order_relaxed); }
    // True when more than `frames` reliable frames wait for a writer that has not run while the
    // socket could take them: the server is behind, not the reader. Then `caught_up` (set once,
    // called on the writer's thread) is called when they are down to `frames`, the socket fills or
    // the outbox closes, so a sender that holds back for the writer learns when to look again.
    bool writer_behind(std::size_t frames);
    void on_writer_caught_up(std::function<void()> caught_up);

private:
    void wake_if_idle(std::unique_lock<std::mutex>& lock);
    // The caught-up call when one is armed and its condition holds (called under the lock; the
    // caller calls what it returns after unlocking).
    std::function<void()>* caught_up_due();

    std::function<void()> wake_;
    mutable std::mutex mutex_;
    bool welcomed_ = false;
    bool writer_busy_ = false;
    std::deque<Frame> control_;
    std::deque<Frame> reliable_;
    std::size_t reliable_bytes_ = 0;
    std::deque<Frame> ticks_;
    std::deque<Frame> stream_;
    std::deque<Frame> deltas_;
    std::optional<CloseRequest> close_;
    std::atomic<bool> socket_full_{false};
    std::atomic<bool> reader_lagging_{false};
    std::function<void()> caught_up_;
    std::optional<std::size_t> caught_up_at_;  // armed by writer_behind: call caught_up_ at this many
};

}  // namespace hschool::net
