// Clients that stop reading: tick frames drop oldest-first, reliable frames are bounded, and
// nobody else is held up.
#include <regex>

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

constexpr int kSmallReceiveBuffer = 4096;

class Backpressure : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_TRUE(server.started()) << server.output(); }
    std::unique_ptr<WsClient> slow_arena_client() {
        auto client = WsClient::connect(server.port(), {"/ws/game", kSmallReceiveBuffer});
        EXPECT_TRUE(client);
        if (!client) return nullptr;
        EXPECT_TRUE(client->send(arena_hello("slow")));
        EXPECT_TRUE(next_v1_of<v1::Welcome>(*client));
        return client;
    }
    TempDir dir;
    ServerProcess server{heavy_arena_args(dir)};
};

TEST_F(Backpressure, AClientThatStopsReadingGetsTheNewestSnapshotsWhenItResumes) {
    auto client = slow_arena_client();
    ASSERT_TRUE(client);
    std::this_thread::sleep_for(3s);  // about 180 ticks pile up behind a full socket

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
    EXPECT_GT(metric(server.port(), "hschool_frames_dropped_total{version=\"1\"}"), 0);
}

TEST_F(Backpressure, AClientWhoseReliableQueueOverflowsIsClosed) {
    auto client = slow_arena_client();
    ASSERT_TRUE(client);
    std::this_thread::sleep_for(2s);  // the socket is full now; Pongs can only queue
    for (int i = 0; i < 600; ++i) ASSERT_TRUE(client->send(v1::encode(v1::Ping{i})));
    std::this_thread::sleep_for(500ms);
    EXPECT_EQ(close_code(*client, 30s), 1008);
}

TEST_F(Backpressure, AStalledClientDoesNotHoldUpAnyoneElse) {
    auto stalled = slow_arena_client();
    ASSERT_TRUE(stalled);
    auto healthy = WsClient::connect(server.port());
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
