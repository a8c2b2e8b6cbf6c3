// Clients that stop reading: tick frames drop oldest-first, reliable frames are bounded, and
// nobody else is held up.
#include <regex>
#include <thread>

#include "wire.hpp"

namespace hschool::test {
namespace {

// Large snapshots at a high rate fill the socket buffers within a second or two.
std::vector<std::string> heavy_arena_args(const TempDir& dir) {
    auto args = isolated_server_args(dir);
    args.insert(args.end(), {"--tick-rate", "60", "--obstacles", "3000", "--world-width", "40000", "--world-height",
                             "40000", "--log-level", "info"});
    return args;
}

double metric(std::uint16_t port, const std::string& series) {
    const auto body = http_request(port, "GET", "/metrics").body;
    const auto at = body.find(series + " ");
    if (at == std::string::npos) return -1;
    return std::stod(body.substr(at + series.size() + 1));
}

// Polls the server's metric until it exceeds `floor`; whether it did within kWait.
bool metric_exceeds(std::uint16_t port, const std::string& series, double floor) {
    for (const auto until = std::chrono::steady_clock::now() + kWait; std::chrono::steady_clock::now() < until;) {
        if (metric(port, series) > floor) return true;
        std::this_thread::sleep_for(20ms);
    }
    return false;
}

constexpr int kSmallReceiveBuffer = 4096;
const std::string kV1Dropped = "hschool_frames_dropped_total{version=\"1\"}";

class Backpressure : public ::testing::Test {
protected:
    void start(const std::vector<std::string>& extra = {}) {
        auto args = heavy_arena_args(dir);
        args.insert(args.end(), extra.begin(), extra.end());
        server = std::make_unique<ServerProcess>(args);
        ASSERT_TRUE(server->started()) << server->output();
    }
    std::uint16_t port() const { return server->port(); }
    std::unique_ptr<WsClient> slow_arena_client() {
        auto client = WsClient::connect(port(), {"/ws/game", kSmallReceiveBuffer});
        EXPECT_TRUE(client);
        if (!client) return nullptr;
        EXPECT_TRUE(client->send(arena_hello("slow")));
        EXPECT_TRUE(next_v1_of<v1::Welcome>(*client));
        return client;
    }
    TempDir dir;
    std::unique_ptr<ServerProcess> server;
};

// The client reads nothing until the server has dropped one of its snapshots (the counter says so);
// then it must get the newest ones, not the whole backlog.
TEST_F(Backpressure, AClientThatStopsReadingGetsTheNewestSnapshotsWhenItResumes) {
    start();
    const double dropped_before = metric(port(), kV1Dropped);
    auto client = slow_arena_client();
    ASSERT_TRUE(client);
    ASSERT_TRUE(metric_exceeds(port(), kV1Dropped, dropped_before)) << "no snapshot was dropped for a client that reads nothing";

    // The Pong jumps the tick ring, so it marks where the kernel's buffered frames end.
    ASSERT_TRUE(client->send(v1::encode(v1::Ping{1})));
    std::uint32_t last_before_pong = 0;
    std::optional<v1::Pong> pong;
    for (int i = 0; i < 1000 && !pong; ++i) {
        auto message = next_v1(*client);
        ASSERT_TRUE(message);
        if (auto* snapshot = std::get_if<v1::Snapshot>(&*message)) last_before_pong = snapshot->tick;
        if (auto* p = std::get_if<v1::Pong>(&*message)) pong = *p;
    }
    ASSERT_TRUE(pong) << "no Pong while draining";
    auto first_from_ring = next_v1_of<v1::Snapshot>(*client);
    ASSERT_TRUE(first_from_ring);

    EXPECT_GT(first_from_ring->tick, last_before_pong + 1) << "no snapshot was dropped";
    // Drop-oldest keeps the most recent 32: what comes out of the ring is recent, not stale.
    EXPECT_GE(first_from_ring->tick + 32 + 8, pong->server_tick) << "the ring kept old snapshots";
    EXPECT_GT(metric(port(), kV1Dropped), 0);
}

// The socket is full by construction: with the delivery window off the server writes snapshots
// until the kernel takes no more, and only then does its tick ring drop one (the counter). A flood of
// Pings is then answered by Pongs that can only queue: past the reliable bound the client is closed
// 1008 "client is not reading". The inbound budget is lifted so that it is that bound, not the
// message rate limit, that closes it; without the bound the Pongs would queue forever.
TEST_F(Backpressure, AClientWhoseReliableQueueOverflowsIsClosed) {
    start({"--max-delivery-lag-ms", "0", "--ws-message-burst", "100000", "--ws-message-rate", "100000"});
    const double dropped_before = metric(port(), kV1Dropped);
    auto client = slow_arena_client();
    ASSERT_TRUE(client);
    ASSERT_TRUE(metric_exceeds(port(), kV1Dropped, dropped_before)) << "the socket of a client that reads nothing never filled";
    for (int i = 0; i < 600; ++i) ASSERT_TRUE(client->send(v1::encode(v1::Ping{i})));
    const auto closed = client->read_until_closed(kWait);
    ASSERT_TRUE(closed) << "a client with 600 Pongs waiting is still connected";
    EXPECT_EQ(closed->code, 1008);
    EXPECT_EQ(closed->reason, "client is not reading");
}

TEST_F(Backpressure, AStalledClientDoesNotHoldUpAnyoneElse) {
    start();
    auto stalled = slow_arena_client();
    ASSERT_TRUE(stalled);
    auto healthy = WsClient::connect(port());
    ASSERT_TRUE(healthy);
    ASSERT_TRUE(healthy->send(arena_hello("healthy")));
    ASSERT_TRUE(next_v1_of<v1::Welcome>(*healthy));
    std::uint32_t previous = 0;
    int advancing = 0;
    // About four seconds of snapshots while the other client never reads.
    for (int i = 0; i < 240; ++i) {
        auto snapshot = next_v1_of<v1::Snapshot>(*healthy);
        ASSERT_TRUE(snapshot);
        if (snapshot->tick > previous) ++advancing;
        previous = snapshot->tick;
    }
    EXPECT_EQ(advancing, 240);
}

}  // namespace
}  // namespace hschool::test
