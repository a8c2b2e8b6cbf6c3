// hschool-floor: the cheapest a server could deliver a frame on this machine. N loopback TCP pairs;
// one thread writes one frame per socket per round (as the server's tick does), another drains
// them with epoll. Prints the CPU each thread spent per frame as one JSON line. No WebSocket, no Beast.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

constexpr int kMaxPairs = 20000;             // two descriptors each, plus the listener
constexpr int kMaxFrameBytes = 1 << 20;
constexpr double kMaxSeconds = 60;
constexpr int kListenBacklog = 4096;
constexpr int kEpollBatch = 256;
constexpr std::size_t kReadChunk = 64 * 1024;  // the receiver reads as much as is there, like a WS client
constexpr auto kDrainGrace = std::chrono::seconds(5);

struct Options {
    int pairs = 2000;
    int frame_bytes = 17;  // a Clock (15 bytes) behind a 2-byte WebSocket header
    double seconds = 3;
    double rate_hz = 20;   // rounds per second, as the server's tick; 0 = as fast as possible
};

double thread_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

[[noreturn]] void die(const char* what) {
    std::perror(what);
    std::exit(1);
}

bool parse(int argc, char** argv, Options& o) {
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string_view flag = argv[i];
        const double value = std::atof(argv[i + 1]);
        if (flag == "--pairs") o.pairs = static_cast<int>(value);
        else if (flag == "--bytes") o.frame_bytes = static_cast<int>(value);
        else if (flag == "--seconds") o.seconds = value;
        else if (flag == "--rate") o.rate_hz = value;
        else return false;
    }
    return o.pairs >= 1 && o.pairs <= kMaxPairs && o.frame_bytes >= 1 && o.frame_bytes <= kMaxFrameBytes && o.seconds > 0 &&
           o.seconds <= kMaxSeconds && o.rate_hz >= 0 && argc % 2 == 1;
}

// Connected loopback TCP pairs: .first is the sending end, .second the receiving end.
std::vector<std::pair<int, int>> make_pairs(int count) {
    const int listener = socket(AF_INET, SOCK_STREAM, 0);
    if (listener < 0) die("socket");
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) < 0) die("bind");
    if (listen(listener, kListenBacklog) < 0) die("listen");
    if (getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len) < 0) die("getsockname");
    std::vector<std::pair<int, int>> pairs;
    for (int i = 0; i < count; ++i) {
        const int client = socket(AF_INET, SOCK_STREAM, 0);
        if (client < 0) die("socket");
        if (connect(client, reinterpret_cast<sockaddr*>(&addr), sizeof addr) < 0) die("connect");
        const int server = accept(listener, nullptr, nullptr);
        if (server < 0) die("accept");
        const int one = 1;
        setsockopt(server, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);  // as the server's sockets: one frame, one segment
        fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK);
        pairs.emplace_back(server, client);
    }
    close(listener);
    return pairs;
}

struct Totals {
    double cpu_seconds = 0;
    std::uint64_t frames = 0;
    std::uint64_t calls = 0;
};

Totals write_rounds(const std::vector<std::pair<int, int>>& pairs, const Options& o) {
    const std::vector<char> frame(static_cast<std::size_t>(o.frame_bytes), 'x');
    const auto start = std::chrono::steady_clock::now();
    const auto end = start + std::chrono::duration<double>(o.seconds);
    const auto period = o.rate_hz > 0 ? std::chrono::duration<double>(1.0 / o.rate_hz) : std::chrono::duration<double>(0);
    auto next = start;
    Totals t;
    const double cpu0 = thread_cpu_seconds();
    while (std::chrono::steady_clock::now() < end) {
        for (const auto& [sender, receiver] : pairs) {
            std::size_t sent = 0;
            while (sent < frame.size()) {  // blocking socket: a short write only happens when the receiver lags
                const ssize_t n = send(sender, frame.data() + sent, frame.size() - sent, MSG_NOSIGNAL);
                if (n < 0) die("send");
                sent += static_cast<std::size_t>(n);
                ++t.calls;
            }
            ++t.frames;
        }
        next += std::chrono::duration_cast<std::chrono::steady_clock::duration>(period);
        if (o.rate_hz > 0) std::this_thread::sleep_until(next);
    }
    t.cpu_seconds = thread_cpu_seconds() - cpu0;
    return t;
}

Totals drain(const std::vector<std::pair<int, int>>& pairs, const std::atomic<std::uint64_t>& expected_bytes,
             const std::atomic<bool>& writer_done) {
    const int epoll = epoll_create1(0);
    if (epoll < 0) die("epoll_create1");
    for (const auto& [sender, receiver] : pairs) {
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.fd = receiver;
        if (epoll_ctl(epoll, EPOLL_CTL_ADD, receiver, &ev) < 0) die("epoll_ctl");
    }
    std::vector<char> buffer(kReadChunk);
    std::vector<epoll_event> events(kEpollBatch);
    std::uint64_t bytes = 0;
    Totals t;
    const double cpu0 = thread_cpu_seconds();
    std::chrono::steady_clock::time_point give_up{};
    while (true) {
        if (writer_done) {
            if (bytes >= expected_bytes) break;
            if (give_up == std::chrono::steady_clock::time_point{}) give_up = std::chrono::steady_clock::now() + kDrainGrace;
            if (std::chrono::steady_clock::now() > give_up) break;
        }
        const int ready = epoll_wait(epoll, events.data(), kEpollBatch, 10);
        for (int i = 0; i < ready; ++i) {
            while (true) {
                const ssize_t n = recv(events[static_cast<std::size_t>(i)].data.fd, buffer.data(), buffer.size(), 0);
                ++t.calls;
                if (n <= 0) break;
                bytes += static_cast<std::uint64_t>(n);
                if (static_cast<std::size_t>(n) < buffer.size()) break;  // drained: skip the EAGAIN call
            }
        }
    }
    t.cpu_seconds = thread_cpu_seconds() - cpu0;
    t.frames = bytes;  // converted to frames by the caller
    close(epoll);
    return t;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    if (!parse(argc, argv, o)) {
        std::fprintf(stderr, "usage: hschool-floor [--pairs N] [--bytes B] [--seconds S] [--rate HZ]\n");
        return 2;
    }
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
    const auto pairs = make_pairs(o.pairs);
    std::atomic<std::uint64_t> expected_bytes{~std::uint64_t{0}};
    std::atomic<bool> writer_done{false};
    Totals received;
    std::thread reader([&] { received = drain(pairs, expected_bytes, writer_done); });
    const Totals sent = write_rounds(pairs, o);
    expected_bytes = sent.frames * static_cast<std::uint64_t>(o.frame_bytes);
    writer_done = true;
    reader.join();
    for (const auto& [sender, receiver] : pairs) {
        close(sender);
        close(receiver);
    }
    const double frames_received = static_cast<double>(received.frames) / o.frame_bytes;
    std::printf(
        "{\"pairs\":%d,\"frame_bytes\":%d,\"rate_hz\":%g,\"frames_sent\":%llu,\"frames_received\":%.0f,"
        "\"send_cpu_us_per_frame\":%.4f,\"recv_cpu_us_per_frame\":%.4f,\"recv_calls_per_frame\":%.3f,"
        "\"send_cpu_s\":%.4f,\"recv_cpu_s\":%.4f}\n",
        o.pairs, o.frame_bytes, o.rate_hz, static_cast<unsigned long long>(sent.frames), frames_received,
        sent.frames ? 1e6 * sent.cpu_seconds / static_cast<double>(sent.frames) : 0.0,
        frames_received > 0 ? 1e6 * received.cpu_seconds / frames_received : 0.0,
        frames_received > 0 ? static_cast<double>(received.calls) / frames_received : 0.0, sent.cpu_seconds, received.cpu_seconds);
    return 0;
}
