#pragma once
// A hide-and-seek socket as a match sees it, and what the socket tells the match: the seam between
// the network layer (ws_session.cpp implements Peer, calls PeerSink) and the Boost-free matches.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>

#include "protocol/bytes.hpp"

namespace hschool::server::hns {

// Close codes these sockets end with (RFC 6455 numbers).
inline constexpr std::uint16_t kCloseMatchOver = 1000;      // the match finished: results are in the REST
inline constexpr std::uint16_t kCloseGoingAway = 1001;      // the match was deleted or the server stops
inline constexpr std::uint16_t kCloseBadPayload = 1007;     // a malformed Sprite v1 message (§1: the receiver closes)
inline constexpr std::uint16_t kClosePolicy = 1008;         // refused after the upgrade (duplicate name, kicked, over a limit)
inline constexpr std::uint16_t kCloseTooBig = 1009;         // an over-long 0x81 text
inline constexpr std::uint16_t kCloseInternal = 1011;
inline constexpr std::uint16_t kCloseTryAgainLater = 1013;  // the server is busy right now

// One binary message for many sockets (a spectators' shared frame): built once by the match,
// framed once by the transport (whichever peer sends it first), the same bytes for every socket.
class SharedMessage {
public:
    explicit SharedMessage(protocol::Bytes payload) : payload_(std::move(payload)) {}
    protocol::ByteView payload() const { return payload_; }

    // The transport's own form of the message (e.g. with its WebSocket header), made by
    // `make(payload)` on the first call; every later call returns the same object.
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

// The socket side. Thread-safe: a match calls it from its own thread.
class Peer {
public:
    virtual ~Peer() = default;
    // Queues one WebSocket message (binary, or text for decisions and rewards). False when the
    // socket is going (closed, or over its outbound bound, which closes it).
    virtual bool send(protocol::ByteView message, bool text) = 0;
    virtual void close(std::uint16_t code, const char* reason) = 0;

    // The stream lane: shared binary messages that never close the socket for being many. The
    // sender bounds it with shared_backlog() and resyncs a viewer that falls behind. False when
    // the socket is going.
    virtual bool send_shared(const SharedMessagePtr& message) = 0;
    // Bytes sent with send_shared that the socket has not yet taken (queued or being written):
    // 0 means the viewer has drained and may be resynced.
    virtual std::size_t shared_backlog() const = 0;
    // Forgets the queued shared messages the writer has not started; what is being written still goes.
    virtual void drop_shared_backlog() = 0;
    // The reader has not yet acknowledged what was written to it a while ago (the transport's
    // delivery window is shut, issue 31): its kernel buffers hide a backlog the lane cannot see, so
    // a viewer is resynced instead of being fed more.
    virtual bool reader_lagging() const { return false; }
};

// The match side, called on the socket's network thread.
class PeerSink {
public:
    virtual ~PeerSink() = default;
    // The upgrade is done: from now on the match may send. Called once, before any message.
    virtual void attach(std::shared_ptr<Peer> peer) = 0;
    // One whole WebSocket data message, within the connection's inbound budget.
    virtual void on_message(protocol::ByteView message, bool text) = 0;
    // The socket has ended (either side); called once, also when attach never came.
    virtual void on_closed() = 0;
};

}  // namespace hschool::server::hns
