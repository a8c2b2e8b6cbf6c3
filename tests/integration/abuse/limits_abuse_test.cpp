// Connection caps (total and per IP) answer 503 problem+json before the upgrade; a storm of
// connections under a low descriptor limit neither stops the server nor floods its log.
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>

#include <thread>

#include "abuse_support.hpp"
#include "protocol/v1.hpp"
#include "protocol/v4.hpp"

namespace hschool::test::abuse {
namespace {

namespace v1 = protocol::v1;
namespace v4 = protocol::v4;

protocol::Bytes schools_hello() { return v4::encode(v4::Hello{v4::kVersion, 0}); }

inline constexpr auto kGaugeSettle = kWait;  // a closed session leaves the gauge (at once on a quiet machine)

// Closes cleanly (close frame, wait for the echo) so the server finishes the session at once.
void close_politely(RawWs& ws) {
    ws.send_close(1000, "bye");
    ws.read_until_end(kWait);
    ws.socket().close();
}

// ---- both caps ----

// Opens `count` schools sessions into `open`; each must be let in.
void open_sessions(std::uint16_t port, int count, std::vector<std::unique_ptr<RawWs>>& open) {
    for (int i = 0; i < count; ++i) {
        open.push_back(join(port, schools_hello()));
        ASSERT_TRUE(open.back()) << "connection " << i + 1 << " of " << count << " was refused";
    }
}

// The next upgrade is refused with a 503 problem.
void expect_upgrade_refused(std::uint16_t port, const char* which) {
    auto over = RawWs::upgrade(port);
    EXPECT_FALSE(over.ws) << which << " was upgraded";
    EXPECT_TRUE(is_problem(over.reply, 503)) << which;
}

// ---- total cap ----

inline constexpr int kMaxConnections = 4;

TEST(LimitsAbuse, TheUpgradeBeyondMaxConnectionsGets503AndAFreedSlotIsReused) {
    TempDir dir;
    ServerProcess server(server_args(dir, {"--max-connections", std::to_string(kMaxConnections)}));
    ASSERT_TRUE(server.started()) << server.output();
    const double refused_before = family_sum(scrape_metrics(server.port()), "hschool_connections_refused_total").value_or(0);

    std::vector<std::unique_ptr<RawWs>> open;
    ASSERT_NO_FATAL_FAILURE(open_sessions(server.port(), kMaxConnections, open));
    expect_upgrade_refused(server.port(), "one over the cap");
    // Plain HTTP is not a WebSocket session: the server still answers it at the cap.
    EXPECT_EQ(http_request(server.port(), "GET", "/health").status, 200U);
    const auto metrics = scrape_metrics(server.port());
    EXPECT_GE(family_sum(metrics, "hschool_connections_refused_total").value_or(0), refused_before + 1) << "refusal not counted";
    EXPECT_EQ(series(metrics, "hschool_connections{version=\"4\"}"), double(kMaxConnections));
    EXPECT_EQ(series(metrics, "hschool_connections{version=\"none\"}"), 0.0) << "the refused upgrade is counted as open";

    close_politely(*open.front());
    open.erase(open.begin());
    ASSERT_TRUE(eventually([&] { return open_connections(server.port()) == double(kMaxConnections - 1); }, kGaugeSettle));
    auto again = join(server.port(), schools_hello());
    EXPECT_TRUE(again) << "the freed slot was not given to a new connection";
    // And the cap holds again once it is taken.
    expect_upgrade_refused(server.port(), "one over the cap once the freed slot is taken");
}

// ---- per-IP cap ----

inline constexpr int kMaxPerIp = 3;
inline constexpr const char* kOtherLoopback = "127.0.0.2";  // still this machine, another client address

TEST(LimitsAbuse, TheUpgradeBeyondMaxConnectionsPerIpGets503WhileOtherAddressesAreServed) {
    TempDir dir;
    ServerProcess server(server_args(dir, {"--max-connections-per-ip", std::to_string(kMaxPerIp)}));
    ASSERT_TRUE(server.started()) << server.output();
    const double refused_before = family_sum(scrape_metrics(server.port()), "hschool_connections_refused_total").value_or(0);

    std::vector<std::unique_ptr<RawWs>> open;
    ASSERT_NO_FATAL_FAILURE(open_sessions(server.port(), kMaxPerIp, open));
    expect_upgrade_refused(server.port(), "one over the cap from one address");
    EXPECT_GE(family_sum(scrape_metrics(server.port()), "hschool_connections_refused_total").value_or(0), refused_before + 1);

    UpgradeOptions elsewhere;
    elsewhere.socket.source_address = kOtherLoopback;
    auto other = join(server.port(), schools_hello(), elsewhere);
    EXPECT_TRUE(other) << "a client from another address was refused by the per-IP cap of 127.0.0.1";

    close_politely(*open.front());
    open.erase(open.begin());
    ASSERT_TRUE(eventually([&] { return open_connections(server.port()) == double(kMaxPerIp - 1 + (other ? 1 : 0)); }, kGaugeSettle));
    auto again = join(server.port(), schools_hello());
    EXPECT_TRUE(again) << "the freed per-IP slot was not given to a new connection";
}

// ---- a connection storm under RLIMIT_NOFILE 128 ----

inline constexpr rlim_t kFileLimit = 128;
inline constexpr int kStormConnections = 200;
inline constexpr auto kStormHold = 2s;            // the storm's sockets stay open this long
inline constexpr std::size_t kMaxAcceptErrorLines = 20;
inline constexpr double kMaxStormCpuShare = 0.25;  // of one core during the hold: backing off, not spinning
inline constexpr auto kServedDeadline = kWait;    // pre-storm clients answer after the storm
inline constexpr auto kRecoverDeadline = kWait;   // a new connection is served once the storm has gone
inline constexpr int kStormClientsChecked = 5;    // accepted storm connections that must still work

TEST(LimitsAbuse, AConnectionStormUnderALowDescriptorLimitKeepsServingTheAcceptedAndBacksOffQuietly) {
    TempDir dir;
    ServerProcess server(server_args(dir), ServerProcess::Launch{kFileLimit, {}});
    ASSERT_TRUE(server.started()) << "exit status " << server.start_exit_status().value_or(-1) << "\n" << server.output();

    // Before the storm: an arena player and a keep-alive HTTP connection.
    WsMessage welcome;
    auto player = join(server.port(), v1::encode(v1::Hello{v1::kVersion, "before"}), {}, &welcome);
    ASSERT_TRUE(player);
    player->set_auto_pong(true);  // as every WebSocket library: unanswered, its snapshots would wait for it
    Socket keep_alive = Socket::connect(server.port());
    ASSERT_TRUE(keep_alive.valid());
    const std::string health = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    std::string keep_alive_buffer;
    ASSERT_TRUE(keep_alive.send_all(health));
    ASSERT_EQ(read_http_reply(keep_alive, keep_alive_buffer, false).status, 200U);

    // The storm: every socket connects at once and asks for an upgrade.
    struct Attempt {
        Socket socket;
        std::string request_left;
        std::string received;
        bool dead = false;
    };
    std::vector<Attempt> storm(kStormConnections);
    std::string upgrade_request = "GET /ws/game HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                  "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
    for (auto& attempt : storm) {
        attempt.socket = Socket::connect_nonblocking(server.port());
        attempt.request_left = upgrade_request;
        attempt.dead = !attempt.socket.valid();
    }
    const auto cpu_before = cpu_seconds(server.pid());
    const auto storm_started = Clock::now();
    while (Clock::now() < storm_started + kStormHold) {
        std::vector<pollfd> fds;
        std::vector<Attempt*> owners;
        for (auto& attempt : storm) {
            if (attempt.dead) continue;
            fds.push_back({attempt.socket.fd(), static_cast<short>(POLLIN | (attempt.request_left.empty() ? 0 : POLLOUT)), 0});
            owners.push_back(&attempt);
        }
        if (::poll(fds.data(), fds.size(), 20) < 0) break;
        for (std::size_t i = 0; i < fds.size(); ++i) {
            Attempt& attempt = *owners[i];
            if ((fds[i].revents & POLLOUT) && !attempt.request_left.empty()) {
                const ssize_t n = ::send(attempt.socket.fd(), attempt.request_left.data(), attempt.request_left.size(), MSG_NOSIGNAL);
                if (n > 0) attempt.request_left.erase(0, static_cast<std::size_t>(n));
                if (n < 0 && errno != EAGAIN) attempt.dead = true;
            }
            if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
                // Only the upgrade answer comes before our Hello.
                if (attempt.received.find("\r\n\r\n") == std::string::npos) {
                    if (attempt.socket.read_some(attempt.received, 0ms) != Socket::Read::Data) attempt.dead = true;
                } else if (fds[i].revents & (POLLHUP | POLLERR)) {
                    attempt.dead = true;
                }
            }
        }
    }
    const auto cpu_after = cpu_seconds(server.pid());

    int upgraded = 0;
    std::vector<std::unique_ptr<RawWs>> accepted;
    for (auto& attempt : storm) {
        if (attempt.dead || !attempt.received.starts_with("HTTP/1.1 101")) continue;
        ++upgraded;
        if (static_cast<int>(accepted.size()) < kStormClientsChecked) {
            std::string rest = attempt.received;
            ASSERT_TRUE(take_http_reply(rest, false));
            attempt.socket.set_nonblocking(false);
            accepted.push_back(std::make_unique<RawWs>(std::move(attempt.socket), std::move(rest)));
        }
    }
    EXPECT_GT(upgraded, 0) << "the server accepted nothing during the storm";
    EXPECT_LT(upgraded, kStormConnections) << "the descriptor limit was never reached: the test proves nothing";

    // Those it accepted are still served: frames for the player, /health on the kept-alive connection,
    // a Welcome for the storm's own upgraded connections.
    ASSERT_TRUE(player->send_binary(v1::encode(v1::Ping{42})));
    EXPECT_TRUE(player->read_until_id(v1::id::kPong, kServedDeadline)) << "the arena player got no Pong after the storm";
    EXPECT_TRUE(player->read_until_id(v1::id::kSnapshot, kServedDeadline)) << "the arena player got no snapshot after the storm";
    ASSERT_TRUE(keep_alive.send_all(health));
    EXPECT_EQ(read_http_reply(keep_alive, keep_alive_buffer, false, kServedDeadline).status, 200U) << "keep-alive /health";
    for (auto& ws : accepted) {
        ASSERT_TRUE(ws->send_binary(v4::encode(v4::Hello{v4::kVersion, 0})));
        EXPECT_TRUE(ws->read_until_id(v4::id::kWelcome, kServedDeadline)) << "an accepted storm connection is not served";
    }

    ASSERT_TRUE(cpu_before && cpu_after);
    const double hold_seconds = std::chrono::duration<double>(kStormHold).count();
    EXPECT_LT((*cpu_after - *cpu_before) / hold_seconds, kMaxStormCpuShare) << "the server spun during the storm";

    const auto output = server.output();
    const auto accept_errors = count_occurrences(output, "event=accept_failed");
    EXPECT_GE(accept_errors, 1U) << "no accept error logged: was the limit hit?";
    EXPECT_LT(accept_errors, kMaxAcceptErrorLines) << "the log was flooded with accept errors";

    // The storm goes; the server accepts again.
    accepted.clear();
    storm.clear();
    EXPECT_TRUE(eventually([&] { return http_request(server.port(), "GET", "/health").status == 200; }, kRecoverDeadline))
        << "no new connection served after the storm\n" << server.output();
}

}  // namespace
}  // namespace hschool::test::abuse
