#pragma once
// A WebSocket connection after its endpoint accepted the upgrade (the transport's own files only).
// Frames are read and written here directly (ws_frame), so a shared tick frame goes out as
// pre-framed bytes, several per sendmsg. Its life is one explicit state; every way it ends goes
// through finish(). The class is one, its jobs are in three files:
//   ws_session.cpp        the upgrade, the greeting, liveness pings, closing and finishing;
//   ws_session_read.cpp   reading, the inbound budget, frames handed to the game's handler;
//   ws_session_write.cpp  writing batches, the delivery window, the stall rule, the write scheduler.
#include <boost/asio/steady_timer.hpp>

#include <array>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "net/delivery_window.hpp"
#include "net/network_thread.hpp"
#include "net/outbox.hpp"
#include "net/ws_frame.hpp"
#include "net/ws_socket.hpp"

namespace hschool::net {

class WsSession final : public std::enable_shared_from_this<WsSession>, public PolledSocket {
public:
    using Clock = std::chrono::steady_clock;
    using error_code = boost::system::error_code;

    enum class State : std::uint8_t {
        Upgrading,  // the 101 answer is being written
        Greeting,   // registered; the handler must accept a greeting (speak) within the endpoint's time
        Open,       // speaking its protocol: messages go to the handler, pings keep it alive
        Closing,    // a Close is on its way: nothing more is acted on, reads drain
        Finished,   // the handler was told; the registry, gauge and cap slot are released
    };

    WsSession(tcp::socket&& socket, NetworkShared& shared, NetworkThread& thread, ConnectionLimiter::Slot slot,
              const WsEndpoint& endpoint, std::shared_ptr<WsHandler> handler);

    // Writes the 101 answer (its Sec-WebSocket-Accept value given), then the session is open.
    void run(std::string accept_key);
    // Called by the write scheduler on this session's thread.
    void flush();
    // The one way a session ends: tells the handler, leaves the registry and the gauge, frees the cap slot.
    // `dropped`: the server ends it without a Close frame, for that cause.
    void finish(const char* why, std::optional<CloseCause> dropped = std::nullopt);

    // What the handler asks through its WsConnection, on this thread.
    void speak(const WsProtocol& protocol);
    void reply(protocol::ByteView message);

private:
    // ws_session.cpp
    void on_upgraded();
    void adopt(const WsProtocol& protocol);
    void close(std::uint16_t code, const char* reason, CloseCause cause, std::size_t drain_limit = kMaxCloseDrainBytes);
    // Counted and logged (throttled) once per connection the server ends, Close frame or not.
    void closed_by_server(CloseCause cause, std::uint16_t code);
    void arm_liveness(Clock::duration after);
    void on_liveness();
    void arm_close_timer();
    void close_socket();

    // ws_session_read.cpp
    void wait_readable();
    void on_readable(error_code ec);
    bool consume(std::size_t bytes);
    bool acting() const { return state_ == State::Greeting || state_ == State::Open; }
    bool within_budget();
    void over_budget();
    void count_frames_in();
    void handle_event(const ws::Event& event);
    void enter_polled_reads();
    void on_polled(bool readable, bool writable) override;

    // ws_session_write.cpp
    bool gather();
    void note_window(Clock::time_point now);
    void on_reader_progress();
    void queue_close(CloseRequest request);
    bool write_batch();
    void arm_stall_timer();
    void on_stall_timer();
    void consume_written(std::size_t written);
    void on_writable(error_code wait_ec);
    void wait_writable();

    WsSocket socket_;
    boost::asio::steady_timer liveness_timer_;  // the greeting's deadline, then pings and the silence check
    boost::asio::steady_timer close_timer_;     // our Close's grace period
    boost::asio::steady_timer stall_timer_;     // a peer that stopped reading
    NetworkShared& shared_;
    NetworkThread& thread_;
    const WsEndpoint& endpoint_;  // lives in NetworkShared, read-only while threads run
    const ConnectionId id_;
    std::shared_ptr<Outbox> outbox_;
    std::shared_ptr<WsHandler> handler_;
    State state_ = State::Upgrading;
    ProtocolTag tag_ = kNoProtocol;
    ws::FrameReader reader_;
    InboundBudget budget_;
    BudgetLimits budget_limits_{};
    DeliveryWindow window_;  // how far behind the reader is, by its Pongs
    ConnectionLimiter::Slot slot_;
    std::array<std::uint8_t, kReadBufferBytes> read_buffer_{};
    Clock::time_point last_received_{};
    Clock::time_point last_write_progress_{};
    std::size_t closing_drained_ = 0;  // bytes read since we started closing
    std::size_t closing_drain_limit_ = kMaxCloseDrainBytes;
    std::size_t frames_in_ = 0;  // counted in this read, reported at its end
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
    Clock::time_point shut_since_{};
    bool held_back_ = false;  // lossy frames are waiting for the reader (the stall timer runs)
    // The close handshake, as facts: ours queued, ours written (and our side shut), the peer's seen.
    bool close_sent_ = false;
    bool close_written_ = false;
    bool close_half_shut_ = false;
    bool peer_closed_ = false;
    bool closed_by_server_ = false;  // counted in /metrics: the first cause is the one
};

// The session answers the upgrade (ws_handshake checked it and made the accept key), then reads and
// writes the frames itself. The slot is the connection-cap place the upgrade took; it is given back
// when the session ends.
void start_ws_session(tcp::socket&& socket, std::string accept_key, NetworkShared& shared, NetworkThread& thread,
                      ConnectionLimiter::Slot slot, const WsEndpoint& endpoint, std::shared_ptr<WsHandler> handler);

}  // namespace hschool::net
