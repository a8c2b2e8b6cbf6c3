#pragma once
// What the transport reports for /metrics. An interface, so the transport needs no metrics library
// and no game's vocabulary: the server's Metrics implements it, tests pass NoTransportMetrics.
// Counts by protocol use the games' ProtocolTag (kNoProtocol before a connection speaks).
#include <cstddef>
#include <cstdint>

#include "net/close_cause.hpp"
#include "net/ws_connection.hpp"

namespace hschool::net {

class TransportMetrics {
public:
    virtual ~TransportMetrics() = default;
    virtual void connection_opened(ProtocolTag tag) = 0;
    virtual void connection_closed(ProtocolTag tag) = 0;
    virtual void connection_spoke(ProtocolTag tag) = 0;  // kNoProtocol → the game's protocol
    virtual void polled_socket(bool added) = 0;          // a socket joined or left its thread's read poller
    virtual void reader_lagging() = 0;                   // a delivery window shut: its reader fell behind
    virtual void frames_in(ProtocolTag tag, std::size_t frames, std::size_t bytes) = 0;  // a read's worth at once
    virtual void frames_out(ProtocolTag tag, std::size_t frames, std::size_t bytes) = 0;  // one call per write
    virtual void frames_dropped(ProtocolTag tag, std::size_t count) = 0;                  // tick rings overflowing
    virtual void close_sent(std::uint16_t code) = 0;
    virtual void server_closed(CloseCause cause) = 0;   // a connection the server ended (Close frame or not), once each
    virtual void protocol_error(ProtocolTag tag) = 0;    // a frame the WebSocket rules refuse
    virtual void budget_exceeded(ProtocolTag tag) = 0;   // a client sent faster than its inbound budget
    virtual void connection_refused(const char* reason) = 0;  // an upgrade answered 503/403: total, per_ip, origin
    virtual void accept_error() = 0;                          // accept() failed (EMFILE, ENFILE, ENOBUFS, …)
    virtual void peer_timeout(const char* reason) = 0;        // silent (no pong) or write_stall
    virtual void http_request(unsigned status) = 0;
};

class NoTransportMetrics final : public TransportMetrics {
public:
    void connection_opened(ProtocolTag) override {}
    void connection_closed(ProtocolTag) override {}
    void connection_spoke(ProtocolTag) override {}
    void polled_socket(bool) override {}
    void reader_lagging() override {}
    void frames_in(ProtocolTag, std::size_t, std::size_t) override {}
    void frames_out(ProtocolTag, std::size_t, std::size_t) override {}
    void frames_dropped(ProtocolTag, std::size_t) override {}
    void close_sent(std::uint16_t) override {}
    void server_closed(CloseCause) override {}
    void protocol_error(ProtocolTag) override {}
    void budget_exceeded(ProtocolTag) override {}
    void connection_refused(const char*) override {}
    void accept_error() override {}
    void peer_timeout(const char*) override {}
    void http_request(unsigned) override {}
};

}  // namespace hschool::net
