#pragma once
// The seam between the transport and the games (issue 32). For each WebSocket path a game registers
// an endpoint (ws_endpoint.hpp) that accepts or refuses an upgrade before the 101 and returns the
// WsHandler that receives that connection's messages; the handler is handed a WsConnection to send
// and close with. No Asio here: a game never sees a socket.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "net/close_codes.hpp"
#include "net/outbox.hpp"
#include "net/token_bucket.hpp"
#include "protocol/bytes.hpp"

namespace hschool::net {

using ConnectionId = std::uint64_t;

// What a socket speaks, as its game names it for /metrics (the protocol's version byte: 1, 4, 5;
// 0x53 for Sprite v1). The transport only counts by it.
using ProtocolTag = std::uint8_t;
inline constexpr ProtocolTag kNoProtocol = 0;  // the game has not said yet (before a Hello)

// Where a connection lives: the loop and the fan-out reach its outbox on the thread that writes it.
struct ConnectionRef {
    ConnectionId id = 0;
    std::shared_ptr<Outbox> outbox;
    std::uint32_t shard = 0;  // the network thread that writes this connection
};

// One binary message for many sockets (a spectators' shared frame): built once by a game, framed
// once by the transport (whichever connection sends it first), the same bytes for every socket.
class SharedMessage {
public:
    explicit SharedMessage(protocol::Bytes payload) : payload_(std::move(payload)) {}
    protocol::ByteView payload() const { return payload_; }

    // The transport's own form of the message (with its WebSocket header), made by `make(payload)`
    // on the first call; every later call returns the same object.
    template <class Make>
    std::shared_ptr<const void> wire(Make&& make) const {
        std::call_once(wire_once_, [&] { wire_ = make(payload()); });
        return wire_;
    }

private:
    protocol::Bytes payload_;
    mutable std::once_flag wire_once_;
    mutable std::shared_ptr<const void> wire_;
};
using SharedMessagePtr = std::shared_ptr<const SharedMessage>;

// What a connection speaks: its inbound limits, and how its socket is best served. An endpoint
// gives the one it starts with; a game with a greeting (a Hello) names the real one with speak().
struct WsProtocol {
    ProtocolTag tag = kNoProtocol;
    std::size_t max_message_bytes = 0;  // a client message over this is closed with 1009
    // Messages and bytes a second it may send (over → 1008): the server's configured budget, raised
    // to this floor where the protocol needs more (a fast-mode seat).
    BudgetLimits budget_floor{};
    // Read by the thread's poller every kPolledReadPeriod instead of woken per message: for clients
    // that send one small message a tick (arena v5).
    bool polled_reads = false;
    int not_sent_lowat_bytes = 0;  // TCP_NOTSENT_LOWAT: the kernel keeps at most this unsent (0: its default)
};

// The transport's side of one WebSocket, as a game holds it. Thread-safe unless a method says not.
class WsConnection {
public:
    virtual ~WsConnection() = default;
    virtual ConnectionId id() const = 0;
    virtual ConnectionRef ref() const = 0;

    // Queues one WebSocket message (binary, or text) on the reliable lane. False when the
    // connection is going (closed, or over its outbound bound, which closes it).
    virtual bool send(protocol::ByteView message, bool text) = 0;
    virtual void close(std::uint16_t code, const char* reason) = 0;

    // The stream lane: shared binary messages that never close the connection for being many. The
    // sender bounds it with shared_backlog() and resyncs a viewer that falls behind. False when
    // the connection is going.
    virtual bool send_shared(const SharedMessagePtr& message) = 0;
    // Bytes sent with send_shared that the socket has not yet taken (queued or being written):
    // 0 means the viewer has drained and may be resynced.
    virtual std::size_t shared_backlog() const = 0;
    // Forgets the queued shared messages the writer has not started; what is being written still goes.
    virtual void drop_shared_backlog() = 0;
    // The reader has not yet acknowledged what was written to it a while ago (the delivery window,
    // delivery_window.hpp): its kernel buffers hide a backlog the lane cannot see, so a viewer is
    // resynced instead of being fed more.
    virtual bool reader_lagging() const = 0;
    // More than `frames` messages sent with send() wait for a network thread that has not written
    // them while the socket could take them: the server is behind, not the reader, and a sender
    // that keeps producing would only pile them up. Then the caught-up call (set once, before any
    // writer_behind) runs on the network thread when they are down to `frames` (or the socket
    // fills, or the connection goes).
    virtual bool writer_behind(std::size_t frames) = 0;
    virtual void on_writer_caught_up(std::function<void()> caught_up) = 0;

    // On the connection's own thread, from WsHandler::on_message only:
    // the greeting was accepted and the connection speaks this from now on; pings start.
    virtual void speak(const WsProtocol& protocol) = 0;
    // A reply that goes out at the end of this read (a Pong), not after the thread's other work.
    virtual void reply(protocol::ByteView message) = 0;
};

// The game's side of one WebSocket: called on the connection's network thread.
class WsHandler {
public:
    virtual ~WsHandler() = default;
    // The upgrade is done: from now on the game may send. Called once, before any message.
    virtual void on_open(std::shared_ptr<WsConnection> connection) = 0;
    // One whole data message, within the connection's inbound budget; text for a text frame.
    virtual void on_message(protocol::ByteView message, bool text) = 0;
    // The connection has ended (either side); called once, also when on_open never came.
    virtual void on_closed() = 0;
};

}  // namespace hschool::net
