// Arena protocol v5 against the real server: Welcome, StaticWorld, an unbroken delta chain from a
// keyframe, ackSeq echoes, a replica that agrees with a v1 client beside it, limits and close codes.
#include <algorithm>
#include <csignal>
#include <fstream>
#include <iterator>
#include <map>
#include <thread>

#include "arena_client.hpp"
#include "protocol/v5.hpp"
#include "sim/arena/v5/interest.hpp"
#include "sim/arena/v5/replica.hpp"
#include "sim/replay/replay_reader.hpp"
#include "sim/replay/replay_verify.hpp"

namespace hschool::test::arena {
namespace {

namespace p5 = protocol::v5;
namespace av5 = sim::arena::v5;

constexpr int kMaxFramesToWait = 200;  // 10 s at 20 Hz: every wait below is bounded

std::optional<p5::ServerMessage> next_v5(WsClient& client) {
    return next_decoded<p5::ServerMessage>(client, p5::decode_server, "v5", kWait);
}

// A v5 player: Hello, then Welcome and StaticWorld; every Frame is applied to its replica.
class V5Client {
public:
    explicit V5Client(std::uint16_t port, WsClient::Options options = {}) : ws_(WsClient::connect(port, options)) {
        if (!ws_ || !ws_->send(p5::encode(p5::Hello{5, "v5"}))) {
            ADD_FAILURE() << "no connection";
            return;
        }
        auto first = next_v5(*ws_);
        if (first) welcome_ = std::get_if<p5::Welcome>(&*first) ? std::optional(std::get<p5::Welcome>(*first)) : std::nullopt;
        auto second = welcome_ ? next_v5(*ws_) : std::nullopt;
        if (second && std::holds_alternative<p5::StaticWorld>(*second)) world_ = std::get<p5::StaticWorld>(*second);
        if (!welcome_ || !world_) ADD_FAILURE() << "expected Welcome then StaticWorld";
    }
    bool joined() const { return welcome_ && world_; }
    const p5::Welcome& welcome() const { return *welcome_; }
    const p5::StaticWorld& static_world() const { return *world_; }
    WsClient& ws() { return *ws_; }
    const av5::Replica& replica() const { return replica_; }

    // The next Frame, applied; skips Pongs.
    std::optional<p5::Frame> frame() {
        for (int i = 0; i < kMaxFramesToWait; ++i) {
            auto message = next_v5(*ws_);
            if (!message) return std::nullopt;
            if (auto* f = std::get_if<p5::Frame>(&*message)) {
                if (const auto error = replica_.apply(*f)) {
                    ADD_FAILURE() << "Frame " << f->tick << " breaks the session: " << av5::describe(*error);
                    return std::nullopt;
                }
                return *f;
            }
        }
        ADD_FAILURE() << "no Frame";
        return std::nullopt;
    }
    bool input(std::uint32_t seq, std::uint8_t mask) { return ws_->send(p5::encode(p5::Input{seq, mask})); }

private:
    std::unique_ptr<WsClient> ws_;
    std::optional<p5::Welcome> welcome_;
    std::optional<p5::StaticWorld> world_;
    av5::Replica replica_;
};

using ArenaV5 = ArenaServerTest;

TEST_F(ArenaV5, OpensWithWelcomeStaticWorldAndAKeyframeThenAnUnbrokenChain) {
    start();
    V5Client client(port());
    ASSERT_TRUE(client.joined());
    EXPECT_EQ(client.welcome().version, 5);
    EXPECT_EQ(client.welcome().tick_rate, 20);
    EXPECT_EQ(client.welcome().width, 1600.0f);
    EXPECT_EQ(client.welcome().quantum_exp, -3);
    EXPECT_EQ(client.static_world().obstacles.size(), 12U);
    auto first = client.frame();
    ASSERT_TRUE(first);
    EXPECT_TRUE(first->flags & p5::frame_flags::kKeyframe);
    EXPECT_EQ(first->base_tick, 0U);
    std::uint32_t tick = first->tick;
    for (int i = 0; i < 30; ++i) {
        auto f = client.frame();  // the replica checks baseTick against the previous tick
        ASSERT_TRUE(f);
        EXPECT_GT(f->tick, tick);
        tick = f->tick;
    }
    const auto entries = client.replica().entries();
    ASSERT_EQ(entries.size(), 1U);
    EXPECT_EQ(entries[0].id, client.welcome().player_id);
    EXPECT_EQ(entries[0].slot, client.welcome().self_slot);
}

TEST_F(ArenaV5, AckSeqClimbsToTheLastInputAndSelfMovesOneStepPerCommand) {
    start({"--obstacles", "0"});
    V5Client client(port());
    ASSERT_TRUE(client.joined());
    auto first = client.frame();
    ASSERT_TRUE(first);
    const float x0 = first->self_x;
    constexpr std::uint32_t kCommands = 6;
    for (std::uint32_t seq = 1; seq <= kCommands; ++seq) ASSERT_TRUE(client.input(seq, 8));
    ASSERT_TRUE(client.input(kCommands + 1, 0));  // then stand still
    std::uint32_t ack = 0;
    for (int i = 0; i < kMaxFramesToWait && ack < kCommands + 1; ++i) {
        auto f = client.frame();
        ASSERT_TRUE(f);
        EXPECT_GE(f->ack_seq, ack) << "ackSeq never decreases";
        ack = f->ack_seq;
        EXPECT_LE(f->input_queue, 8);
        // Self is exact: one 12-unit step per right command applied so far, none after.
        EXPECT_EQ(f->self_x, x0 + 12.0f * static_cast<float>(std::min(ack, kCommands))) << "ack " << ack;
        EXPECT_EQ(f->self_y, first->self_y);
    }
    EXPECT_EQ(ack, kCommands + 1);
}

TEST_F(ArenaV5, BesideAV1ClientTheReplicaHoldsTheSamePlayersToTheQuantum) {
    start();
    ArenaClient v1_client(port(), "classic");
    ASSERT_TRUE(v1_client.joined());
    V5Client client(port());
    ASSERT_TRUE(client.joined());
    ASSERT_TRUE(v1_client.input(1, 8));  // the v1 avatar walks right from its spawn point
    std::optional<v1::Snapshot> snapshot;
    int compared = 0;
    for (int i = 0; i < 60 && compared < 20; ++i) {
        auto f = client.frame();
        ASSERT_TRUE(f);
        // The v1 client joined first and has a backlog: read it up to the Frame's tick.
        for (int n = 0; n < kMaxFramesToWait && (!snapshot || snapshot->tick < f->tick); ++n) {
            snapshot = v1_client.snapshot();
            ASSERT_TRUE(snapshot);
        }
        if (snapshot->tick != f->tick) continue;
        const auto at = &*snapshot;
        // Every player the v1 snapshot has within the v5 client's window is in the replica, quantised.
        const auto grid = av5::Grid{client.welcome().grid_cols, client.welcome().grid_rows};
        const auto window = av5::window_around(av5::cell_of(f->self_x, f->self_y, grid), grid);
        std::vector<std::pair<std::uint32_t, std::pair<int, int>>> expected, got;
        for (const auto& e : at->entities) {
            if (e.kind != v1::kind::kPlayer) continue;
            const auto cell = av5::cell_of(e.x, e.y, grid);
            if (!window.contains(cell % grid.cols, cell / grid.cols)) continue;
            expected.push_back({e.id, {av5::quantise(e.x, -3), av5::quantise(e.y, -3)}});
            if (e.id == client.welcome().player_id) {
                EXPECT_EQ(e.x, f->self_x);
                EXPECT_EQ(e.y, f->self_y);
            }
        }
        for (const auto& v : client.replica().entries()) got.push_back({v.id, {v.qx, v.qy}});
        std::sort(expected.begin(), expected.end());
        std::sort(got.begin(), got.end());
        EXPECT_EQ(got, expected) << "tick " << f->tick;
        ++compared;
    }
    EXPECT_GE(compared, 10);
}

// Frames the server skipped for v5 readers that were behind (their next Frame coalesces them).
double v5_frames_skipped(std::uint16_t port) {
    const auto body = http_request(port, "GET", "/metrics").body;
    const std::string name = "\nhschool_frames_dropped_total{version=\"5\"} ";
    const auto at = body.find(name);
    return at == std::string::npos ? -1.0 : std::stod(body.substr(at + name.size()));
}

// The reader stops reading until the server has skipped some of its Frames (the counter says so),
// then must get an unbroken chain (the replica applies every Frame) that comes every tick again.
TEST_F(ArenaV5, AStalledReaderKeepsAnUnbrokenChainAndCatchesUp) {
    start();
    const double skipped_before = v5_frames_skipped(port());
    V5Client client(port(), WsClient::Options{"/ws/game", 4096});
    ASSERT_TRUE(client.joined());
    ASSERT_TRUE(client.frame());
    ASSERT_TRUE(eventually([&] { return v5_frames_skipped(port()) > skipped_before; }))
        << "the server never skipped a Frame for a reader that reads nothing";
    std::uint32_t last = 0;
    int consecutive = 0;
    for (int i = 0; i < kMaxFramesToWait && consecutive < 10; ++i) {
        auto f = client.frame();
        ASSERT_TRUE(f);
        consecutive = f->tick == last + 1 ? consecutive + 1 : 0;
        last = f->tick;
    }
    EXPECT_EQ(consecutive, 10) << "after the stall, Frames come every tick again";
}

// Arena sockets (v1 and v5) are read by their thread's poller after Hello (net/read_poller.hpp),
// not woken by Asio per message.
double polled_sockets(std::uint16_t port) {
    const auto body = http_request(port, "GET", "/metrics").body;
    const std::string name = "\nhschool_polled_sockets ";
    const auto at = body.find(name);
    return at == std::string::npos ? -1.0 : std::stod(body.substr(at + name.size()));
}

// Bounded: the session leaves the poller as soon as the server reads the end of its connection.
double polled_sockets_once_settled(std::uint16_t port, double expected) {
    double seen = polled_sockets(port);
    eventually([&] { return (seen = polled_sockets(port)) == expected; });
    return seen;
}

TEST_F(ArenaV5, APolledSocketAnswersPingsTakesInputsAndLeavesThePollerWhenThePeerGoes) {
    start({"--obstacles", "0"});
    ArenaClient classic(port(), "classic");
    ASSERT_TRUE(classic.joined());
    EXPECT_EQ(polled_sockets(port()), 1.0) << "a v1 player's socket is polled too (issue 42 point 4)";
    auto client = std::make_unique<V5Client>(port());
    ASSERT_TRUE(client->joined());
    EXPECT_EQ(polled_sockets(port()), 2.0);

    ASSERT_TRUE(client->input(1, 8));
    std::uint32_t ack = 0;
    for (int i = 0; i < kMaxFramesToWait && ack < 1; ++i) {
        auto f = client->frame();
        ASSERT_TRUE(f);
        ack = f->ack_seq;
    }
    EXPECT_EQ(ack, 1U) << "the Input read by the poller reached the world";

    // Frames from here on are skipped, not applied: only the Pong is looked for.
    ASSERT_TRUE(client->ws().send(p5::encode(p5::Ping{4242})));
    bool ponged = false;
    for (int i = 0; i < kMaxFramesToWait && !ponged; ++i) {
        auto message = next_v5(client->ws());
        ASSERT_TRUE(message);
        if (auto* pong = std::get_if<p5::Pong>(&*message)) ponged = pong->client_time_ms == 4242;
    }
    EXPECT_TRUE(ponged) << "a Pong for the Ping read by the poller";

    client.reset();  // the peer goes: the poller reports the end, the session finishes
    EXPECT_EQ(polled_sockets_once_settled(port(), 1.0), 1.0) << "no socket left behind in the poller (the v1 player's stays)";
    EXPECT_TRUE(classic.snapshot()) << "the server goes on";
}

TEST_F(ArenaV5, AFloodOnAPolledSocketIsClosedWith1008WhileANeighbourKeepsItsFrames) {
    start();
    V5Client neighbour(port());
    ASSERT_TRUE(neighbour.joined());
    V5Client flooder(port());
    ASSERT_TRUE(flooder.joined());
    // Three times the burst the budget allows (240), as fast as the socket takes them: the poller
    // reads them in a pass or a few. The server may close before the last is written.
    std::uint32_t sent = 0;
    while (sent < 720 && flooder.input(sent + 1, 8)) ++sent;
    EXPECT_GT(sent, 240U);
    EXPECT_EQ(close_code(flooder.ws()), 1008);
    std::uint32_t last = 0;
    int consecutive = 0;
    for (int i = 0; i < kMaxFramesToWait && consecutive < 10; ++i) {
        auto f = neighbour.frame();
        ASSERT_TRUE(f);
        consecutive = last != 0 && f->tick == last + 1 ? consecutive + 1 : 0;
        last = f->tick;
    }
    EXPECT_EQ(consecutive, 10) << "the neighbour's chain goes on, a Frame every tick";
}

TEST_F(ArenaV5, MalformedInputIs1007AndAnOversizedFrameIs1009) {
    start();
    {
        V5Client client(port());
        ASSERT_TRUE(client.joined());
        ASSERT_TRUE(client.ws().send(protocol::Bytes{0x02, 1, 0, 0, 0, 8, 0}));  // Input with a trailing byte
        EXPECT_EQ(close_code(client.ws()), 1007);
    }
    {
        V5Client client(port());
        ASSERT_TRUE(client.joined());
        protocol::Bytes unknown(p5::kMaxInboundFrameBytes, 0x7F);  // exactly the limit: an ignored id
        ASSERT_TRUE(client.ws().send(unknown));
        ASSERT_TRUE(client.frame()) << "1 KiB is accepted";
        unknown.push_back(0);
        ASSERT_TRUE(client.ws().send(unknown));
        EXPECT_EQ(close_code(client.ws()), 1009);
    }
    {
        V5Client client(port());
        ASSERT_TRUE(client.joined());
        ASSERT_TRUE(client.ws().send(p5::encode(p5::Hello{5, "again"})));
        EXPECT_EQ(close_code(client.ws()), 1007);
    }
}

TEST_F(ArenaV5, MaxPlayersRefusesTheNextOfEitherVersionWith1013) {
    start({"--max-players", "2"});
    V5Client a(port());
    ArenaClient b(port());
    ASSERT_TRUE(a.joined());
    ASSERT_TRUE(b.joined());
    auto late_v5 = WsClient::connect(port());
    ASSERT_TRUE(late_v5->send(p5::encode(p5::Hello{5, "late"})));
    EXPECT_EQ(close_code(*late_v5), 1013);
    auto late_v1 = WsClient::connect(port());
    ASSERT_TRUE(late_v1->send(arena_hello("late")));
    EXPECT_EQ(close_code(*late_v1), 1013);
}

TEST_F(ArenaV5, RecordedCommandsAreOnePerStepAndTheReplayReStepsBitForBit) {
    const auto file = dir.path() / "arena.replay";
    start({"--record", file.string(), "--obstacles", "6"});
    V5Client client(port());
    ASSERT_TRUE(client.joined());
    ASSERT_TRUE(client.frame());
    constexpr std::uint32_t kCommands = 8;  // one burst, as a tab waking up sends it
    for (std::uint32_t seq = 1; seq <= kCommands; ++seq) ASSERT_TRUE(client.input(seq, seq % 2 ? 8 : 2));
    std::uint32_t ack = 0;
    for (int i = 0; i < kMaxFramesToWait && ack < kCommands; ++i) {
        auto f = client.frame();
        ASSERT_TRUE(f);
        ack = f->ack_seq;
    }
    ASSERT_EQ(ack, kCommands);
    ASSERT_EQ(server->stop(SIGTERM), 0) << server->output();

    std::ifstream in(file, std::ios::binary);
    const protocol::Bytes bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    sim::replay::ReplayReader reader(bytes);
    ASSERT_TRUE(reader.header_ok());
    std::vector<std::pair<std::uint32_t, std::uint32_t>> inputs;  // (tick, seq)
    sim::replay::ReplayTick tick;
    while (reader.next(tick))
        for (const auto& command : tick.commands)
            if (auto* input = std::get_if<sim::arena::InputCommand>(&command)) inputs.push_back({tick.tick, input->sequence});
    ASSERT_EQ(inputs.size(), kCommands);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        EXPECT_EQ(inputs[i].second, i + 1);
        if (i > 0) {
            EXPECT_EQ(inputs[i].first, inputs[i - 1].first + 1) << "one queued command per step";
        }
    }
    const auto verdict = sim::replay::verify_replay(bytes);
    EXPECT_TRUE(verdict.matched()) << sim::replay::describe(verdict);
}

}  // namespace
}  // namespace hschool::test::arena
