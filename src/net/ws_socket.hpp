#pragma once
// A WebSocket's TCP socket, served one of two ways: by Asio's reactor (woken per arrival), or by
// its thread's ReadPoller (read in batches; the descriptor leaves Asio for good). The session reads,
// writes and waits through this, and never asks which.
#include <boost/asio/ip/tcp.hpp>
#include <boost/system/error_code.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "net/read_poller.hpp"

namespace hschool::net {

class WsSocket {
public:
    using tcp = boost::asio::ip::tcp;
    using error_code = boost::system::error_code;

    explicit WsSocket(tcp::socket&& socket) : socket_(std::move(socket)) {}
    ~WsSocket();
    WsSocket(const WsSocket&) = delete;
    WsSocket& operator=(const WsSocket&) = delete;

    // The Asio socket: for the handshake and for waits, while it is not polled.
    tcp::socket& asio() { return socket_; }
    bool polled() const { return polled_fd_ >= 0; }

    // Non-blocking, no Nagle (a Pong must not wait for an ACK), TCP keepalive after kTcpKeepAliveIdle.
    bool configure(error_code& ec);
    // TCP_NOTSENT_LOWAT: the kernel keeps at most this many bytes unsent (stale frames skip, not queue).
    void limit_unsent(int bytes);

    // As recv/sendmsg: would_block when there is nothing to read or no room; eof when the peer ended.
    std::size_t read_some(std::span<std::uint8_t> buffer, error_code& ec);
    std::size_t write_some(std::span<const boost::asio::const_buffer> buffers, error_code& ec);

    // Leaves Asio's reactor for the poller, which tells `owner` of arrivals from now on. False when
    // the poller refused: the socket stays with Asio. `failed` when it could be neither.
    bool enter_poller(ReadPoller& poller, std::shared_ptr<PolledSocket> owner, bool& failed);
    // Polled: also report room to write (false when the kernel refuses); come back on the next pass.
    bool want_write(ReadPoller& poller, bool want) { return poller.want_write(token_, want); }
    void poll_again(ReadPoller& poller) { poller.again(token_); }

    void shutdown_send();
    // Closes both ways; true when it was polled (it has left the poller).
    bool close(ReadPoller& poller);

private:
    tcp::socket socket_;  // until it is polled: then released, and polled_fd_ is the socket
    int polled_fd_ = -1;
    ReadPoller::Token token_ = 0;
};

}  // namespace hschool::net
