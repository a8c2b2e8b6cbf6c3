#pragma once
// Tools for the abuse suite: a raw TCP socket, a WebSocket client that does RFC 6455 by hand (so it
// can lie, stall, or stay silent where a library would not let it), a raw HTTP response reader,
// /metrics scraping, and what /proc says about the server process.
#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "protocol/bytes.hpp"
#include "server_process.hpp"
#include "server_test.hpp"
#include "ws_client.hpp"

namespace hschool::test::abuse {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

inline constexpr const char* kLoopback = "127.0.0.1";

namespace opcode {
inline constexpr std::uint8_t kContinuation = 0x0;
inline constexpr std::uint8_t kText = 0x1;
inline constexpr std::uint8_t kBinary = 0x2;
inline constexpr std::uint8_t kClose = 0x8;
inline constexpr std::uint8_t kPing = 0x9;
inline constexpr std::uint8_t kPong = 0xA;
}  // namespace opcode

// ---- TCP ----

struct SocketOptions {
    int receive_buffer = 0;     // SO_RCVBUF before connect; 0 keeps the default
    std::string source_address;  // bind() before connect, e.g. "127.0.0.2"; empty: the kernel picks
};

// One TCP connection to the server on loopback; closed when the object goes.
class Socket {
public:
    Socket() = default;
    explicit Socket(int fd) : fd_(fd) {}
    ~Socket();
    Socket(Socket&& other) noexcept;
    Socket& operator=(Socket&& other) noexcept;
    Socket(const Socket&) = delete;
    Socket& operator=(const Socket&) = delete;

    // A blocking connect; an invalid socket when it fails.
    static Socket connect(std::uint16_t port, const SocketOptions& options = {});
    // Starts a non-blocking connect (loopback usually completes at once); invalid when it cannot start.
    static Socket connect_nonblocking(std::uint16_t port, const SocketOptions& options = {});

    bool valid() const { return fd_ >= 0; }
    int fd() const { return fd_; }
    void set_nonblocking(bool on);
    // Sends everything before the deadline (polling when the socket is full); false on error or time-out.
    bool send_all(std::string_view bytes, std::chrono::milliseconds timeout = kWait);

    enum class Read { Data, Eof, Reset, Timeout };
    // Appends what arrives within the timeout (at most `max` bytes).
    Read read_some(std::string& into, std::chrono::milliseconds timeout, std::size_t max = 64 * 1024);
    void shutdown_write();
    void close();

private:
    int fd_ = -1;
};

// ---- HTTP ----

struct HttpReply {
    unsigned status = 0;                          // 0 when no status line arrived
    std::map<std::string, std::string> headers;  // names in lower case
    std::string body;
    bool complete = false;  // status line, headers and the whole Content-Length body arrived
    std::string header(const std::string& name) const;
};

// Parses one response from the front of `buffer` and removes it; nothing while it is incomplete.
// `head`: the response to a HEAD request has no body whatever its Content-Length says.
std::optional<HttpReply> take_http_reply(std::string& buffer, bool head);
// Reads one response from the socket (bytes beyond it stay in `buffer`); `complete` false on time-out or close.
HttpReply read_http_reply(Socket& socket, std::string& buffer, bool head, std::chrono::milliseconds timeout = kWait);

// The body is application/problem+json with that numeric status; the failure says why not.
::testing::AssertionResult is_problem(const HttpReply& reply, unsigned status);

// ---- WebSocket ----

// One client frame, masked as RFC 6455 requires of clients.
std::string client_frame(std::uint8_t op, std::string_view payload, bool fin = true);
std::string client_frame(std::uint8_t op, const protocol::Bytes& payload, bool fin = true);
// Just the header of a masked frame announcing `length` payload bytes, whatever follows.
std::string client_frame_header(std::uint8_t op, std::uint64_t length, bool fin = true);

struct WsMessage {
    std::uint8_t op = 0;  // binary, text, ping or pong
    std::string payload;
    protocol::Bytes bytes() const { return protocol::Bytes(payload.begin(), payload.end()); }
};
struct WsEnded {
    enum class How { CloseFrame, Eof, Reset, Broken };
    How how = How::Eof;
    std::uint16_t code = 0;  // of a close frame; 1005 when it had none
    std::string reason;
};
struct WsTimeout {};
using WsEvent = std::variant<WsMessage, WsEnded, WsTimeout>;
std::string describe(const WsEvent& event);

struct UpgradeOptions {
    std::string path = "/ws/game";
    std::optional<std::string> host;    // the Host header; default "127.0.0.1:<port>"
    std::optional<std::string> origin;  // no Origin header unless set
    SocketOptions socket;
};

class RawWs;
struct Upgrade {
    HttpReply reply;             // the answer to the upgrade request
    std::unique_ptr<RawWs> ws;   // set when it was 101 Switching Protocols
};

// A WebSocket client whose every byte is under the test's control. Pings are returned to the caller
// (and never answered) unless auto_pong is on. Not thread-safe: one thread per client.
class RawWs {
public:
    static Upgrade upgrade(std::uint16_t port, const UpgradeOptions& options = {}, std::chrono::milliseconds timeout = kWait);
    // The client after a 101; nullptr (and a test failure) otherwise.
    static std::unique_ptr<RawWs> connect(std::uint16_t port, const UpgradeOptions& options = {});
    RawWs(Socket socket, std::string already_read);

    bool send_raw(std::string_view bytes, std::chrono::milliseconds timeout = kWait);
    bool send(std::uint8_t op, std::string_view payload) { return send_raw(client_frame(op, payload)); }
    bool send_binary(const protocol::Bytes& payload) { return send_raw(client_frame(opcode::kBinary, payload)); }
    bool send_close(std::uint16_t code, std::string_view reason = "");

    // The next message (data or control), the end of the connection, or WsTimeout (after which the
    // client is still usable).
    WsEvent read(std::chrono::milliseconds timeout);
    // The next binary message; pings, pongs and text are skipped. WsEnded/WsTimeout otherwise.
    WsEvent read_binary(std::chrono::milliseconds timeout);
    // Binary messages until one whose first byte is `id` arrives; nothing when the connection ends or
    // the time runs out first.
    std::optional<WsMessage> read_until_id(std::uint8_t id, std::chrono::milliseconds timeout = kWait);
    // Reads until the connection ends; nothing if it has not ended within the timeout.
    std::optional<WsEnded> read_until_end(std::chrono::milliseconds timeout);

    // After a close frame: waits for the TCP connection itself to end (bytes are discarded); whether it did.
    bool wait_for_tcp_end(std::chrono::milliseconds timeout);

    void set_auto_pong(bool on) { auto_pong_ = on; }
    int pings_received() const { return pings_received_; }
    bool ended() const { return ended_.has_value(); }
    Socket& socket() { return socket_; }

private:
    std::optional<WsEvent> parse_one();

    Socket socket_;
    std::string buffer_;
    std::string fragments_;
    std::uint8_t fragment_op_ = 0;
    bool auto_pong_ = false;
    int pings_received_ = 0;
    std::optional<WsEnded> ended_;
};

// Reads a socket no faster than a slow link (`bytes_per_second`) and a slow page
// (`messages_per_second`) would, one message at a time, answering Pings as it reads (issue 31).
class PacedReader {
public:
    PacedReader(RawWs& ws, double bytes_per_second, double messages_per_second)
        : ws_(ws), bytes_per_second_(bytes_per_second), messages_per_second_(messages_per_second) {
        ws_.set_auto_pong(true);
    }
    // The next data message, or how the connection ended, or WsTimeout; then waits out its pace.
    WsEvent next(std::chrono::milliseconds timeout) {
        auto event = ws_.read_binary(timeout);
        if (const auto* m = std::get_if<WsMessage>(&event)) {
            bytes_ += m->payload.size();
            ++messages_;
            const auto by_bytes = std::chrono::duration<double>(static_cast<double>(bytes_) / bytes_per_second_);
            const auto by_messages = std::chrono::duration<double>(messages_ / messages_per_second_);
            std::this_thread::sleep_until(start_ + std::chrono::duration_cast<Clock::duration>(std::max(by_bytes, by_messages)));
        }
        return event;
    }
    std::size_t bytes() const { return bytes_; }
    int messages() const { return messages_; }

private:
    RawWs& ws_;
    double bytes_per_second_, messages_per_second_;
    Clock::time_point start_ = Clock::now();
    std::size_t bytes_ = 0;
    int messages_ = 0;
};

// Connects, says Hello, and reads until the Welcome (0x81), which it stores in `welcome` when given;
// nullptr and a test failure otherwise.
std::unique_ptr<RawWs> join(std::uint16_t port, const protocol::Bytes& hello, const UpgradeOptions& options = {},
                            WsMessage* welcome = nullptr);

// ---- the server from outside ----

// A server of its own: database, packs and a web root (with an index.html) under `dir`, info logging,
// then `extra` (later options win).
std::vector<std::string> server_args(const TempDir& dir, const std::vector<std::string>& extra);
inline std::vector<std::string> server_args(const TempDir& dir) { return server_args(dir, {}); }

std::string scrape_metrics(std::uint16_t port);
// The value of one exact series (`name` or `name{labels}`); nothing when it is not listed.
std::optional<double> series(const std::string& metrics, const std::string& name);
// The sum of every series of a family, whatever its labels; nothing when the family is not listed.
std::optional<double> family_sum(const std::string& metrics, const std::string& family);
// The family's series whose value is not zero, one per line: what a failed sum was made of.
std::string nonzero_series(const std::string& metrics, const std::string& family);
// hschool_connections over the labels "none", "1" and "4"; nothing when the scrape failed.
std::optional<double> open_connections(std::uint16_t port);
// hschool_steps_caught_up_total: ticks a late game loop stepped without a frame of their own (a busy
// machine woke it late; its clients see those ticks skipped); nothing when the scrape failed.
std::optional<std::size_t> steps_caught_up(std::uint16_t port);
std::optional<double> open_connections(std::uint16_t port, const std::string& version);

std::optional<std::size_t> rss_bytes(pid_t pid);      // VmRSS from /proc/PID/status
std::optional<double> cpu_seconds(pid_t pid);         // utime + stime from /proc/PID/stat
std::size_t count_occurrences(std::string_view text, std::string_view needle);

// POST /api/schools with a name; the new id, or nothing (and a test failure).
std::optional<std::int32_t> create_school(std::uint16_t port, const std::string& name);

// Lowers the calling thread's priority, so the test's own attack threads do not take the server's
// CPU on a shared machine: a real attacker brings his own.
void nice_this_thread(int nice);

// ---- well-behaved clients that count what they receive ----

// What the well-behaved clients below share: their socket read on a thread of its own (server pings
// answered, one ping of ours a second) until stop(), and each frame that matters kept as a mark (a
// tick, a game time) whose distinct values over the span they should cover give the delivery.
class CountingClient {
public:
    virtual ~CountingClient();
    CountingClient(const CountingClient&) = delete;
    CountingClient& operator=(const CountingClient&) = delete;
    // Stops the thread; then the counts below are final.
    void stop();
    std::size_t received() const { return count_.load(); }  // safe while running
    // Distinct marks received over the span from the first to the last received, with up to
    // `unsent` missing marks forgiven: ticks the server stepped without a frame (steps_caught_up
    // over the client's span), which no client could have received; 0 without frames.
    double delivery(std::size_t unsent) const;
    // How many marks the span from the first to the last received should hold; 0 without frames.
    virtual std::size_t expected() const = 0;
    std::optional<WsEnded> ended() const { return ended_; }

protected:
    CountingClient() = default;
    // Starts reading ws_ (joined by the subclass) on the thread.
    void start();
    bool wait_for_count(std::size_t count, std::chrono::milliseconds timeout);
    std::unique_ptr<RawWs> ws_;
    std::vector<std::int64_t> marks_;

private:
    // Sends what else is due at `now`; called before every read.
    virtual void send_inputs(Clock::time_point /*now*/) {}
    virtual protocol::Bytes ping(std::int64_t client_time_ms) const = 0;
    // The mark a binary frame carries, when it counts.
    virtual std::optional<std::int64_t> mark_of(const protocol::Bytes& frame) = 0;
    void run();
    std::atomic<bool> stop_{false};
    std::atomic<std::size_t> count_{0};
    std::optional<WsEnded> ended_;
    std::thread thread_;
};

// An arena player on its own thread, as the browser client behaves: 30 inputs and one ping a
// second, every frame read, server pings answered. Marks the snapshot ticks it receives.
class ArenaPlayer final : public CountingClient {
public:
    explicit ArenaPlayer(std::uint16_t port, std::string name = "good");
    ~ArenaPlayer() override;
    bool joined() const { return joined_; }
    std::uint32_t player_id() const { return player_id_; }
    // Waits until at least `count` snapshots have arrived.
    bool wait_for_snapshots(std::size_t count, std::chrono::milliseconds timeout) { return wait_for_count(count, timeout); }
    std::size_t expected() const override;

private:
    void send_inputs(Clock::time_point now) override;
    protocol::Bytes ping(std::int64_t client_time_ms) const override;
    std::optional<std::int64_t> mark_of(const protocol::Bytes& frame) override;
    bool joined_ = false;
    std::uint32_t player_id_ = 0;
    std::uint32_t sequence_ = 0;
    Clock::time_point next_input_;
};

// A v4 watcher of one running school: one ping a second, pings answered, every frame read.
// Marks Clock frames by the game time they carry (each tick advances it by a fixed step).
class SchoolWatcher final : public CountingClient {
public:
    SchoolWatcher(std::uint16_t port, std::int32_t school_id);
    ~SchoolWatcher() override;
    bool opened() const { return opened_; }
    bool wait_for_clocks(std::size_t count, std::chrono::milliseconds timeout) { return wait_for_count(count, timeout); }
    std::size_t expected() const override;

private:
    protocol::Bytes ping(std::int64_t client_time_ms) const override;
    std::optional<std::int64_t> mark_of(const protocol::Bytes& frame) override;
    std::int32_t school_id_;
    bool opened_ = false;
    std::uint8_t tick_rate_ = 0;
    std::vector<std::uint8_t> speeds_;
};

}  // namespace hschool::test::abuse
