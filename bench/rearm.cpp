// hschool-rearm: what waiting for the next message costs on Asio's epoll reactor. Two figures:
//  1. the CPU of one failed recv (EAGAIN) and of one epoll_ctl(EPOLL_CTL_MOD) on an idle loopback socket;
//  2. one socket receiving small frames at a steady pace, its reader re-armed either with
//     async_read_some (Asio tries a speculative recv first, which fails) or with async_wait(wait_read)
//     + read_some until a short read (Asio re-arms the descriptor with epoll_ctl instead): CPU of the
//     reading thread per message. Run it under `perf stat -e 'syscalls:sys_enter_*'` to see the calls.
// Prints one JSON line. Raw sockets and Asio only.
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <array>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <thread>

namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

constexpr int kCalls = 1'000'000;
constexpr int kMessages = 20'000;
constexpr std::size_t kFrameBytes = 12;                 // an Input in a masked WebSocket frame
constexpr auto kMessageGap = std::chrono::microseconds(50);
constexpr std::size_t kReadBuffer = 2048;

double thread_cpu_ns() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

struct Pair {
    net::io_context ioc{1};
    tcp::socket client{ioc}, server{ioc};
    Pair() {
        tcp::acceptor acceptor(ioc, {net::ip::make_address("127.0.0.1"), 0});
        client.connect(acceptor.local_endpoint());
        acceptor.accept(server);
        server.non_blocking(true);
    }
};

// 1. Per-call costs on an idle socket.
void raw_costs(double& recv_eagain_ns, double& epoll_ctl_ns) {
    Pair p;
    const int fd = p.server.native_handle();
    const int ep = epoll_create1(EPOLL_CLOEXEC);
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLET;
    ev.data.fd = fd;
    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
    std::array<char, kReadBuffer> buffer{};
    const double t0 = thread_cpu_ns();
    for (int i = 0; i < kCalls; ++i) (void)recv(fd, buffer.data(), buffer.size(), MSG_DONTWAIT);
    const double t1 = thread_cpu_ns();
    for (int i = 0; i < kCalls; ++i) epoll_ctl(ep, EPOLL_CTL_MOD, fd, &ev);
    const double t2 = thread_cpu_ns();
    close(ep);
    recv_eagain_ns = (t1 - t0) / kCalls;
    epoll_ctl_ns = (t2 - t1) / kCalls;
}

// 2. Reading thread's CPU per message with each way of re-arming.
double per_message_ns(bool use_wait) {
    Pair p;
    std::array<char, kReadBuffer> buffer{};
    std::size_t received = 0;
    std::function<void()> arm = [&] {
        if (received >= kMessages * kFrameBytes) return;
        if (use_wait) {
            p.server.async_wait(tcp::socket::wait_read, [&](boost::system::error_code ec) {
                if (ec) return;
                for (;;) {
                    boost::system::error_code read_ec;
                    const std::size_t n = p.server.read_some(net::buffer(buffer), read_ec);
                    if (read_ec) break;
                    received += n;
                    if (n < buffer.size()) break;
                }
                arm();
            });
        } else {
            p.server.async_read_some(net::buffer(buffer), [&](boost::system::error_code ec, std::size_t n) {
                if (ec) return;
                received += n;
                arm();
            });
        }
    };
    arm();
    std::thread sender([&] {
        const std::array<char, kFrameBytes> frame{};
        for (int i = 0; i < kMessages; ++i) {
            net::write(p.client, net::buffer(frame));
            std::this_thread::sleep_for(kMessageGap);
        }
    });
    const double t0 = thread_cpu_ns();
    p.ioc.run();
    const double t1 = thread_cpu_ns();
    sender.join();
    return (t1 - t0) / kMessages;
}

}  // namespace

int main() {
    double recv_eagain_ns = 0, epoll_ctl_ns = 0;
    raw_costs(recv_eagain_ns, epoll_ctl_ns);
    const double read_rearm = per_message_ns(false);
    const double wait_rearm = per_message_ns(true);
    std::printf("{\"recv_eagain_ns\": %.0f, \"epoll_ctl_mod_ns\": %.0f, \"async_read_some_rearm_ns_per_message\": %.0f, "
                "\"async_wait_rearm_ns_per_message\": %.0f, \"messages\": %d}\n",
                recv_eagain_ns, epoll_ctl_ns, read_rearm, wait_rearm, kMessages);
    return 0;
}
