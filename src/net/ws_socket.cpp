#include "net/ws_socket.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>

#include "net/limits.hpp"

namespace hschool::net {

namespace asio = boost::asio;

namespace {

WsSocket::error_code errno_code() {
    if (errno == EAGAIN || errno == EWOULDBLOCK) return asio::error::would_block;
    return {errno, boost::system::system_category()};
}

}  // namespace

WsSocket::~WsSocket() {
    if (polled()) ::close(polled_fd_);  // close() does this; only a session never finished gets here
}

bool WsSocket::configure(error_code& ec) {
    socket_.non_blocking(true, ec);
    if (!ec) socket_.set_option(tcp::no_delay(true), ec);
    if (!ec) socket_.set_option(asio::socket_base::keep_alive(true), ec);
    if (ec) return false;
    // Dead peers behind a silent network go after the OS's keepalive probes, not hours later.
    const int idle_seconds = static_cast<int>(std::chrono::duration_cast<std::chrono::seconds>(kTcpKeepAliveIdle).count());
    ::setsockopt(socket_.native_handle(), IPPROTO_TCP, TCP_KEEPIDLE, &idle_seconds, sizeof idle_seconds);
    return true;
}

void WsSocket::limit_unsent(int bytes) {
    const int fd = polled() ? polled_fd_ : socket_.native_handle();
    ::setsockopt(fd, IPPROTO_TCP, TCP_NOTSENT_LOWAT, &bytes, sizeof bytes);
}

std::size_t WsSocket::read_some(std::span<std::uint8_t> buffer, error_code& ec) {
    if (!polled()) return socket_.read_some(asio::buffer(buffer.data(), buffer.size()), ec);
    for (;;) {
        const ssize_t n = ::recv(polled_fd_, buffer.data(), buffer.size(), MSG_DONTWAIT);
        if (n > 0) {
            ec = {};
            return static_cast<std::size_t>(n);
        }
        if (n == 0) {
            ec = asio::error::eof;
            return 0;
        }
        if (errno == EINTR) continue;
        ec = errno_code();
        return 0;
    }
}

std::size_t WsSocket::write_some(std::span<const asio::const_buffer> buffers, error_code& ec) {
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
        ec = errno_code();
        return 0;
    }
}

bool WsSocket::enter_poller(ReadPoller& poller, std::shared_ptr<PolledSocket> owner, bool& failed) {
    failed = false;
    error_code ec;
    const auto protocol = socket_.local_endpoint(ec).protocol();
    if (ec) return false;
    const int fd = socket_.release(ec);
    if (ec) return false;
    token_ = poller.add(fd, std::move(owner));
    if (token_ != 0) {
        polled_fd_ = fd;
        return true;
    }
    socket_.assign(protocol, fd, ec);  // the poller refused it: back to Asio
    if (ec) {
        ::close(fd);
        failed = true;
    }
    return false;
}

void WsSocket::shutdown_send() {
    if (polled()) {
        ::shutdown(polled_fd_, SHUT_WR);
        return;
    }
    error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_send, ignored);
}

bool WsSocket::close(ReadPoller& poller) {
    if (polled()) {
        poller.remove(token_);
        ::shutdown(polled_fd_, SHUT_RDWR);
        ::close(polled_fd_);
        polled_fd_ = -1;
        token_ = 0;
        return true;
    }
    error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
    return false;
}

}  // namespace hschool::net
