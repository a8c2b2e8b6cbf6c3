// HTTP details an abusive or merely unlucky client runs into: error answers arrive whole even
// while the client keeps sending, HEAD does not leak into the next response, malformed WebSocket
// upgrades are refused, and upgrades check Origin.
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>

#include <boost/json.hpp>

#include <cstring>

#include "abuse_support.hpp"

namespace hschool::test::abuse {
namespace {

class HttpAbuse : public ServerTest<server_args> {};

// ---- error answers are delivered whole while the client is still sending ----

// Within what the server drains after an error answer (1 MiB), so a client that sends its whole
// request before reading is not cut off with a reset.
inline constexpr std::size_t kHugeBodyBytes = 1024 * 1024;
inline constexpr std::size_t kHugeHeaderBytes = 256 * 1024;
inline constexpr auto kErrorAnswerDeadline = kWait;

struct Exchange {
    HttpReply reply;
    std::size_t sent = 0;
    std::size_t request_bytes = 0;
    int send_errno = 0;  // why sending stopped early
    std::optional<Socket::Read> end;  // Eof or Reset, once the server closed
    std::string describe() const {
        std::string text = std::to_string(sent) + " of " + std::to_string(request_bytes) + " request bytes sent";
        if (send_errno != 0) text += " (send: " + std::string(std::strerror(send_errno)) + ")";
        text += end ? (*end == Socket::Read::Eof ? ", then closed by the server" : ", then reset by the server") : ", still open";
        if (!reply.complete) text += "; received: " + reply.body.substr(0, 300);
        return text;
    }
};

// A client on a slow uplink: it is still sending when the server has its answer ready.
inline constexpr std::size_t kSendChunk = 32 * 1024;
inline constexpr auto kSendPace = 10ms;
inline constexpr auto kResetWindow = 300ms;  // after the close, time for a reset to show up

// Sends all of `request` at the slow client's pace while reading whatever comes back, as a client
// that sends its whole body before looking at the answer would; stops once it has sent everything
// and the server has closed, or at the deadline.
Exchange send_while_reading(std::uint16_t port, const std::string& request) {
    Exchange result;
    result.request_bytes = request.size();
    Socket socket = Socket::connect(port);
    if (!socket.valid()) return result;
    socket.set_nonblocking(true);
    std::string received;
    const auto deadline = Clock::now() + kErrorAnswerDeadline;
    auto next_send = Clock::now();
    std::optional<Clock::time_point> closed_at;
    while (Clock::now() < deadline) {
        const bool more = result.send_errno == 0 && result.sent < request.size();
        if (!more && closed_at && Clock::now() >= *closed_at + kResetWindow) break;
        const bool send_now = more && Clock::now() >= next_send;
        pollfd p{socket.fd(), static_cast<short>((closed_at ? 0 : POLLIN) | (send_now ? POLLOUT : 0)), 0};
        if (::poll(&p, 1, static_cast<int>(kSendPace.count())) < 0) break;
        if (p.revents & POLLOUT) {
            const std::size_t size = std::min(kSendChunk, request.size() - result.sent);
            const ssize_t n = ::send(socket.fd(), request.data() + result.sent, size, MSG_NOSIGNAL);
            if (n > 0) result.sent += static_cast<std::size_t>(n);
            if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) result.send_errno = errno;
            next_send = Clock::now() + kSendPace;
        }
        if (!closed_at && (p.revents & (POLLIN | POLLHUP | POLLERR))) {
            const auto read = socket.read_some(received, 0ms);
            if (read == Socket::Read::Eof || read == Socket::Read::Reset) {
                result.end = read;
                closed_at = Clock::now();
            }
            if (!result.reply.complete) {
                if (auto reply = take_http_reply(received, false); reply && reply->complete) result.reply = *reply;
            }
        }
    }
    // A reset after the server's FIN does not show in recv(); it leaves an error on the socket.
    int error = 0;
    socklen_t length = sizeof error;
    if (result.end == Socket::Read::Eof && getsockopt(socket.fd(), SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error != 0) {
        result.end = Socket::Read::Reset;
        if (result.send_errno == 0) result.send_errno = error;
    }
    if (!result.reply.complete) result.reply.body = received;
    return result;
}

std::string filler_headers(std::size_t bytes) {
    std::string lines;
    for (int i = 0; lines.size() < bytes; ++i) lines += "X-Filler-" + std::to_string(i) + ": " + std::string(100, 'f') + "\r\n";
    return lines + "\r\n";
}

void expect_whole_answer_then_clean_close(const Exchange& exchange, unsigned status) {
    EXPECT_TRUE(is_problem(exchange.reply, status)) << exchange.describe();
    EXPECT_EQ(exchange.sent, exchange.request_bytes) << "the client was cut off while sending: " << exchange.describe();
    EXPECT_EQ(exchange.send_errno, 0) << exchange.describe();
    EXPECT_EQ(exchange.end, Socket::Read::Eof) << "the connection did not end with a clean close: " << exchange.describe();
}

TEST_F(HttpAbuse, A413ForAHugeBodyArrivesWholeWhileTheClientKeepsSending) {
    const std::string head = "POST /api/schools HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: " +
                             std::to_string(kHugeBodyBytes) + "\r\n\r\n";
    expect_whole_answer_then_clean_close(send_while_reading(server.port(), head + std::string(kHugeBodyBytes, 'x')), 413);
}

TEST_F(HttpAbuse, A431ForHugeHeadersArrivesWholeWhileTheClientKeepsSending) {
    const std::string request = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n" + filler_headers(kHugeHeaderBytes);
    expect_whole_answer_then_clean_close(send_while_reading(server.port(), request), 431);
}

TEST_F(HttpAbuse, A400ForAMalformedRequestArrivesWholeWhileTheClientKeepsSending) {
    const std::string request = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nno colon in this line\r\n" + filler_headers(kHugeHeaderBytes);
    expect_whole_answer_then_clean_close(send_while_reading(server.port(), request), 400);
}

// ---- the WebSocket handshake (net/ws_handshake): what Beast's accept refused, refused over a socket ----

// The server's answer to an upgrade of /ws/game carrying these further header lines (each with its CRLF).
HttpReply upgrade_reply(std::uint16_t port, const std::string& header_lines) {
    Socket socket = Socket::connect(port);
    if (!socket.valid()) return {};
    if (!socket.send_all("GET /ws/game HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" + header_lines + "\r\n")) return {};
    std::string buffer;
    return read_http_reply(socket, buffer, false);
}

TEST_F(HttpAbuse, UpgradesWithoutHostOrKeyOrWithAnOversizedKeyGet400AndOtherVersions426) {
    const std::string host = "Host: 127.0.0.1\r\n";
    const std::string key = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    const std::string v13 = "Sec-WebSocket-Version: 13\r\n";
    EXPECT_TRUE(is_problem(upgrade_reply(server.port(), key + v13), 400)) << "no Host";
    EXPECT_TRUE(is_problem(upgrade_reply(server.port(), host + v13), 400)) << "no key";
    EXPECT_TRUE(is_problem(upgrade_reply(server.port(), host + "Sec-WebSocket-Key: " + std::string(25, 'A') + "\r\n" + v13), 400))
        << "a key longer than a 16-byte nonce in base64";
    for (const std::string version : {"Sec-WebSocket-Version: 8\r\n", ""}) {
        const HttpReply reply = upgrade_reply(server.port(), host + key + version);
        EXPECT_TRUE(is_problem(reply, 426)) << version;
        EXPECT_EQ(reply.header("sec-websocket-version"), "13") << version;
    }
    // A good request with another key is upgraded, with that key's answer.
    const HttpReply upgraded = upgrade_reply(server.port(), host + "Sec-WebSocket-Key: x3JJHMbDL1EzLkh9GBhXDw==\r\n" + v13);
    EXPECT_EQ(upgraded.status, 101U);
    EXPECT_EQ(upgraded.header("sec-websocket-accept"), "HSmrc0sMlYUkAGmm5OPpG2HaGWk=");
}

// ---- HEAD then GET on one keep-alive connection ----

inline constexpr auto kReplyDeadline = kWait;

TEST_F(HttpAbuse, AGetAfterAHeadOnOneKeepAliveConnectionGetsItsBody) {
    Socket socket = Socket::connect(server.port());
    ASSERT_TRUE(socket.valid());
    std::string buffer;
    for (const char* path : {"/health", "/api/schools", "/health"}) {
        SCOPED_TRACE(path);
        const std::string request_tail = std::string(" ") + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
        ASSERT_TRUE(socket.send_all("HEAD" + request_tail));
        const auto head = read_http_reply(socket, buffer, true, kReplyDeadline);
        ASSERT_TRUE(head.complete) << head.body;
        EXPECT_EQ(head.status, 200U);
        const auto length = std::strtoull(head.header("content-length").c_str(), nullptr, 10);
        EXPECT_GT(length, 0U) << "HEAD keeps the Content-Length of GET";
        EXPECT_TRUE(buffer.empty()) << "the HEAD response carried a body: " << buffer.substr(0, 200);

        ASSERT_TRUE(socket.send_all("GET" + request_tail));
        const auto get = read_http_reply(socket, buffer, false, kReplyDeadline);
        ASSERT_TRUE(get.complete) << "the GET after a HEAD came without its body: " << get.body.substr(0, 300);
        EXPECT_EQ(get.status, 200U);
        EXPECT_EQ(get.body.size(), length) << "GET and HEAD disagree on the length";
        boost::system::error_code ec;
        const auto json = boost::json::parse(get.body, ec);
        EXPECT_FALSE(ec) << "the GET body is not JSON: " << get.body.substr(0, 300);
        EXPECT_TRUE(json.is_object());
    }
}

TEST_F(HttpAbuse, AnErrorAnswerAfterAHeadOnOneKeepAliveConnectionHasItsBody) {
    struct Case {
        const char* request;  // answered with an error, after a HEAD on the same connection
        unsigned status;
    };
    const Case cases[] = {
        {"POST /api/schools HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n", 413},
        {"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nno colon in this line\r\n\r\n", 400},
        {"GET /api/no-such-thing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 404},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.status);
        Socket socket = Socket::connect(server.port());
        ASSERT_TRUE(socket.valid());
        std::string buffer;
        ASSERT_TRUE(socket.send_all("HEAD /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
        const auto head = read_http_reply(socket, buffer, true, kReplyDeadline);
        ASSERT_TRUE(head.complete && head.status == 200U) << head.status << " " << head.body;
        ASSERT_TRUE(socket.send_all(c.request));
        const auto answer = read_http_reply(socket, buffer, false, kReplyDeadline);
        EXPECT_TRUE(is_problem(answer, c.status)) << "the answer after a HEAD lost its body";
    }
}

// ---- Origin of WebSocket upgrades ----

inline constexpr const char* kListedOrigin = "http://example.test";

class OriginAbuse : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_TRUE(server.started()) << server.output(); }
    std::string own_host() const { return std::string(kLoopback) + ":" + std::to_string(server.port()); }
    Upgrade upgrade_from(std::optional<std::string> origin, std::optional<std::string> host = std::nullopt) {
        UpgradeOptions options;
        options.origin = std::move(origin);
        options.host = std::move(host);
        return RawWs::upgrade(server.port(), options);
    }
    TempDir dir;
    ServerProcess server{server_args(dir, {"--allow-origin", kListedOrigin})};
};

TEST_F(OriginAbuse, UpgradesWithoutOriginFromTheSameHostOrAListedOriginAreAccepted) {
    auto none = upgrade_from(std::nullopt);
    EXPECT_TRUE(none.ws) << "no Origin (a non-browser client): " << none.reply.status << " " << none.reply.body;
    auto same = upgrade_from("http://" + own_host());
    EXPECT_TRUE(same.ws) << "Origin of the request's own host: " << same.reply.status << " " << same.reply.body;
    const std::string named_host = "localhost:" + std::to_string(server.port());
    auto named = upgrade_from("http://" + named_host, named_host);
    EXPECT_TRUE(named.ws) << "Origin equal to a Host by name: " << named.reply.status << " " << named.reply.body;
    auto listed = upgrade_from(kListedOrigin);
    EXPECT_TRUE(listed.ws) << "--allow-origin " << kListedOrigin << ": " << listed.reply.status << " " << listed.reply.body;
}

TEST_F(OriginAbuse, UpgradesFromAnyOtherOriginGet403) {
    for (const std::string& origin : {std::string("http://evil.test"), "http://" + own_host() + ".evil.test",
                                      std::string(kListedOrigin) + ".evil.test", std::string("null")}) {
        SCOPED_TRACE(origin);
        auto refused = upgrade_from(origin);
        EXPECT_FALSE(refused.ws);
        EXPECT_TRUE(is_problem(refused.reply, 403));
    }
}

}  // namespace
}  // namespace hschool::test::abuse
