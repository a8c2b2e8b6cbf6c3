// Every way a session ends finishes it; dead, silent and stuck peers go within their deadlines;
// a Ping before Hello is answered.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "abuse_support.hpp"
#include "protocol/v1.hpp"
#include "protocol/v4.hpp"
#include "protocol/v5.hpp"

namespace hschool::test::abuse {
namespace {

namespace v1 = protocol::v1;
namespace v4 = protocol::v4;
namespace v5 = protocol::v5;

// ---- ghost sessions: the hard drop of an oversized frame finishes the session ----

inline constexpr int kGhostClients = 50;
inline constexpr int kGhostThreads = 10;
inline constexpr int kObstacles = 7;
inline constexpr std::uint64_t kAnnouncedFrameBytes = 2 * 1024 * 1024;
inline constexpr std::size_t kSentPayloadBytes = 1024 * 1024 + 64 * 1024;  // beyond what the server skips for a clean 1009
inline constexpr auto kGhostSettle = kWait;     // all 50 finished, the gauge back at 0
inline constexpr int kSnapshotsToInspect = 10;  // half a second of frames after joining

// Hello, a frame announcing 2 MiB, more than 1 MiB of it in one go, then gone.
void hard_drop_client(std::uint16_t port, std::atomic<int>& joined) {
    auto ws = join(port, v1::encode(v1::Hello{v1::kVersion, "ghost"}));
    if (!ws) return;
    ++joined;
    // The server may cut us before all of it went: that is its right, the test checks what follows.
    ws->send_raw(client_frame_header(opcode::kBinary, kAnnouncedFrameBytes) + std::string(kSentPayloadBytes, 'g'), 2s);
    ws->socket().close();
}

TEST(SessionsAbuse, ClientsThatHardDropOnAnOversizedFrameLeaveNoConnectionNorAvatarBehind) {
    TempDir dir;
    ServerProcess server(server_args(dir, {"--obstacles", std::to_string(kObstacles)}));
    ASSERT_TRUE(server.started()) << server.output();

    std::atomic<int> joined{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kGhostThreads; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < kGhostClients / kGhostThreads; ++i) hard_drop_client(server.port(), joined);
        });
    }
    for (auto& thread : threads) thread.join();
    ASSERT_EQ(joined.load(), kGhostClients) << "every ghost must have joined the arena first";

    std::string last_metrics;
    const bool settled = eventually(
        [&] {
            last_metrics = scrape_metrics(server.port());
            for (const char* version : {"none", "1", "4"}) {
                if (series(last_metrics, std::string("hschool_connections{version=\"") + version + "\"}") != 0.0) return false;
            }
            return true;
        },
        kGhostSettle);
    EXPECT_TRUE(settled) << "connections still counted after every client went:\n"
                         << "none=" << series(last_metrics, "hschool_connections{version=\"none\"}").value_or(-1)
                         << " v1=" << series(last_metrics, "hschool_connections{version=\"1\"}").value_or(-1)
                         << " v4=" << series(last_metrics, "hschool_connections{version=\"4\"}").value_or(-1);

    WsMessage welcome_frame;
    auto player = join(server.port(), v1::encode(v1::Hello{v1::kVersion, "after"}), {}, &welcome_frame);
    ASSERT_TRUE(player);
    const auto welcome = v1::decode_server(welcome_frame.bytes());
    ASSERT_TRUE(welcome && std::holds_alternative<v1::Welcome>(welcome.value()));
    const auto own_id = std::get<v1::Welcome>(welcome.value()).player_id;

    std::optional<v1::Snapshot> snapshot;
    for (int i = 0; i < kSnapshotsToInspect; ++i) {
        auto frame = player->read_until_id(v1::id::kSnapshot);
        ASSERT_TRUE(frame) << "no snapshot";
        auto decoded = v1::decode_server(frame->bytes());
        ASSERT_TRUE(decoded);
        snapshot = std::get<v1::Snapshot>(decoded.value());
    }
    int obstacles = 0;
    std::vector<std::uint32_t> players;
    for (const auto& entity : snapshot->entities) {
        if (entity.kind == v1::kind::kObstacle) ++obstacles;
        if (entity.kind == v1::kind::kPlayer) players.push_back(entity.id);
    }
    EXPECT_EQ(obstacles, kObstacles);
    EXPECT_EQ(players, std::vector<std::uint32_t>{own_id}) << players.size() << " avatars in the arena; ghosts stayed";
    EXPECT_EQ(snapshot->entities.size(), static_cast<std::size_t>(kObstacles) + 1);
}

// ---- a peer that says Hello and then nothing: server pings, then gives up ----

inline constexpr auto kPingInterval = 200ms;
inline constexpr auto kPeerTimeout = 1000ms;
inline constexpr auto kSilentCloseSlack = 1500ms;  // timer granularity plus a loaded machine
inline constexpr auto kPongingPeerWatch = 3 * kPeerTimeout;
inline constexpr int kMinPingsSeen = 3;         // of the ~15 a 200 ms interval gives in 3 s
inline constexpr auto kServerCloseGrace = 5s;  // kCloseGrace: a peer's time to answer the server's close frame
inline constexpr auto kPollSlice = 10ms;

TEST(SessionsAbuse, APeerSilentAfterHelloIsClosedWithinThePeerTimeoutWhileOneThatAnswersPingsStays) {
    TempDir dir;
    ServerProcess server(server_args(dir, {"--ping-interval-ms", std::to_string(kPingInterval.count()), "--peer-timeout-ms",
                                            std::to_string(kPeerTimeout.count())}));
    ASSERT_TRUE(server.started()) << server.output();
    const double timeouts_before = family_sum(scrape_metrics(server.port()), "hschool_peer_timeouts_total").value_or(0);

    auto ponging = join(server.port(), v4::encode(v4::Hello{v4::kVersion, 0}));
    ASSERT_TRUE(ponging);
    ponging->set_auto_pong(true);
    const auto hello_sent = Clock::now();
    auto silent = join(server.port(), v4::encode(v4::Hello{v4::kVersion, 0}));
    ASSERT_TRUE(silent);

    std::optional<WsEnded> silent_end;
    std::optional<std::chrono::milliseconds> silent_after;
    std::optional<WsEnded> ponging_end;
    while (Clock::now() < hello_sent + kPongingPeerWatch) {
        if (!silent_end) {
            auto event = silent->read(kPollSlice);  // pings come back as messages: never answered
            if (auto* ended = std::get_if<WsEnded>(&event)) {
                silent_end = *ended;
                silent_after = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - hello_sent);
            }
        }
        auto event = ponging->read(kPollSlice);
        if (auto* ended = std::get_if<WsEnded>(&event)) {
            ponging_end = *ended;
            break;
        }
    }

    ASSERT_TRUE(silent_end) << "a peer silent for " << kPongingPeerWatch.count() << " ms is still connected";
    EXPECT_GE(silent->pings_received(), 1) << "the server sent no WebSocket ping";
    EXPECT_LE(*silent_after, kPeerTimeout + kSilentCloseSlack) << describe(*silent_end);
    EXPECT_GE(*silent_after, kPeerTimeout - kPingInterval) << "closed before the peer timeout: " << describe(*silent_end);
    if (silent_end->how == WsEnded::How::CloseFrame) {
        EXPECT_NE(silent_end->code, 1000) << "a dead peer is not a normal close";
    }

    EXPECT_GE(family_sum(scrape_metrics(server.port()), "hschool_peer_timeouts_total").value_or(0), timeouts_before + 1)
        << "no peer timeout counted";

    // A silent peer does not answer the close frame either: the server lets go of it after its close
    // grace at the latest. The ponging peer keeps answering all the while.
    const auto let_go_deadline = Clock::now() + kServerCloseGrace + kSilentCloseSlack;
    bool tcp_ended = silent_end->how != WsEnded::How::CloseFrame;
    bool uncounted = false;
    while (Clock::now() < let_go_deadline && !(tcp_ended && uncounted)) {
        if (!tcp_ended) tcp_ended = silent->wait_for_tcp_end(kPollSlice);
        uncounted = open_connections(server.port(), "4") == 1.0;
        auto event = ponging->read(kPollSlice);
        if (auto* ended = std::get_if<WsEnded>(&event)) {
            ponging_end = *ended;
            break;
        }
    }
    EXPECT_TRUE(tcp_ended) << "the server kept the silent peer's TCP connection";
    EXPECT_TRUE(uncounted) << "the silent peer is still counted in hschool_connections";
    EXPECT_FALSE(ponging_end) << "a peer that answers every ping was closed: " << describe(*ponging_end);
    EXPECT_GE(ponging->pings_received(), kMinPingsSeen);
}

// Arena v5 sockets are read by their thread's poller, outside Asio (server/read_poller.hpp): the
// liveness timer must still close a silent one, and the poller must let go of it.
TEST(SessionsAbuse, APolledV5PeerSilentAfterHelloIsClosedAndLeavesThePollerWhileOneSendingInputsStays) {
    TempDir dir;
    ServerProcess server(server_args(dir, {"--ping-interval-ms", std::to_string(kPingInterval.count()), "--peer-timeout-ms",
                                            std::to_string(kPeerTimeout.count())}));
    ASSERT_TRUE(server.started()) << server.output();
    auto playing = join(server.port(), v5::encode(v5::Hello{v5::kVersion, "playing"}));
    ASSERT_TRUE(playing);
    const auto hello_sent = Clock::now();
    auto silent = join(server.port(), v5::encode(v5::Hello{v5::kVersion, "silent"}));
    ASSERT_TRUE(silent);
    ASSERT_TRUE(eventually([&] { return series(scrape_metrics(server.port()), "hschool_polled_sockets") == 2.0; }, kWait))
        << "both v5 sockets are polled";

    std::optional<WsEnded> silent_end, playing_end;
    std::optional<std::chrono::milliseconds> silent_after;
    std::uint32_t seq = 0;
    auto next_input = Clock::now();
    while (Clock::now() < hello_sent + kPongingPeerWatch) {
        if (!silent_end) {
            auto event = silent->read(kPollSlice);  // Frames and pings are read, nothing is ever answered
            if (auto* ended = std::get_if<WsEnded>(&event)) {
                silent_end = *ended;
                silent_after = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - hello_sent);
            }
        }
        if (Clock::now() >= next_input) {  // one command per tick, as a browser sends them
            ASSERT_TRUE(playing->send_binary(v5::encode(v5::Input{++seq, 0})));
            next_input += 50ms;
        }
        auto event = playing->read(kPollSlice);
        if (auto* ended = std::get_if<WsEnded>(&event)) {
            playing_end = *ended;
            break;
        }
    }

    ASSERT_TRUE(silent_end) << "a polled peer silent for " << kPongingPeerWatch.count() << " ms is still connected";
    EXPECT_LE(*silent_after, kPeerTimeout + kSilentCloseSlack) << describe(*silent_end);
    EXPECT_GE(*silent_after, kPeerTimeout - kPingInterval) << "closed before the peer timeout: " << describe(*silent_end);
    if (silent_end->how == WsEnded::How::CloseFrame) {
        EXPECT_EQ(silent_end->code, 1008) << describe(*silent_end);
    }
    EXPECT_FALSE(playing_end) << "a peer sending an Input every tick was closed: " << describe(*playing_end);
    // The silent peer answers no close frame: the server drops it within its close grace, and with
    // it the poller's hold on the session.
    EXPECT_TRUE(eventually([&] { return series(scrape_metrics(server.port()), "hschool_polled_sockets") == 1.0; },
                           kServerCloseGrace + kSilentCloseSlack))
        << "the poller still holds the silent peer";
    EXPECT_EQ(open_connections(server.port(), "5"), 1.0);
}

// ---- a Ping before Hello ----

inline constexpr auto kPongDeadline = kWait;

TEST(SessionsAbuse, AWebSocketPingBeforeHelloIsAnsweredWithAPong) {
    TempDir dir;
    ServerProcess server(server_args(dir));
    ASSERT_TRUE(server.started()) << server.output();
    auto ws = RawWs::connect(server.port());
    ASSERT_TRUE(ws);
    ASSERT_TRUE(ws->send(opcode::kPing, "before-hello"));
    auto event = ws->read(kPongDeadline);
    auto* pong = std::get_if<WsMessage>(&event);
    ASSERT_TRUE(pong) << describe(event);
    EXPECT_EQ(pong->op, opcode::kPong);
    EXPECT_EQ(pong->payload, "before-hello");
    // The connection is still good for a Hello afterwards.
    ASSERT_TRUE(ws->send_binary(v4::encode(v4::Hello{v4::kVersion, 0})));
    EXPECT_TRUE(ws->read_until_id(v4::id::kWelcome)) << "no Welcome after an early ping";
}

// ---- TCP keepalive on WebSocket connections ----

inline constexpr auto kTimerDeadline = kWait;

// The kernel's timer kind ("tr" in /proc/net/tcp: 0 none, 1 retransmit, 2 keepalive, ...) of the
// loopback connection from `local_port` to `remote_port`; nothing when it is not listed.
std::optional<int> tcp_timer(std::uint16_t local_port, std::uint16_t remote_port) {
    char local[16], remote[16];
    std::snprintf(local, sizeof local, "0100007F:%04X", local_port);
    std::snprintf(remote, sizeof remote, "0100007F:%04X", remote_port);
    std::ifstream table("/proc/net/tcp");
    std::string line;
    while (std::getline(table, line)) {
        std::istringstream fields(line);
        std::string slot, from, to, state, queues, timer;
        fields >> slot >> from >> to >> state >> queues >> timer;
        if (from == local && to == remote) return std::stoi(timer.substr(0, timer.find(':')), nullptr, 16);
    }
    return std::nullopt;
}

std::uint16_t local_port_of(int fd) {
    sockaddr_in address{};
    socklen_t length = sizeof address;
    getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    return ntohs(address.sin_port);
}

TEST(SessionsAbuse, WebSocketConnectionsHaveTcpKeepaliveOn) {
    TempDir dir;
    ServerProcess server(server_args(dir));
    ASSERT_TRUE(server.started()) << server.output();
    auto ws = join(server.port(), v4::encode(v4::Hello{v4::kVersion, 0}));
    ASSERT_TRUE(ws);
    const auto client_port = local_port_of(ws->socket().fd());
    constexpr int kKeepaliveTimer = 2;
    std::optional<int> server_side, client_side;
    // Once the Welcome is acknowledged the connection is idle: an armed timer can only be keepalive.
    const bool armed = eventually(
        [&] {
            server_side = tcp_timer(server.port(), client_port);
            return server_side == kKeepaliveTimer;
        },
        kTimerDeadline);
    EXPECT_TRUE(armed) << "the server's end of an idle WebSocket has timer " << server_side.value_or(-1) << ", not keepalive";
    // Our own end has no SO_KEEPALIVE: the same reading tells the two apart.
    client_side = tcp_timer(client_port, server.port());
    ASSERT_TRUE(client_side) << "the client's end is not in /proc/net/tcp";
    EXPECT_NE(*client_side, kKeepaliveTimer);
}

// ---- a client that never reads ----

inline constexpr auto kWriteStall = 1000ms;
inline constexpr auto kStallCloseSlack = 6s;  // filling the socket buffers, timers, a loaded machine
inline constexpr int kStuckReceiveBuffer = 4096;
inline constexpr double kGoodClientMinDelivery = 0.99;
inline constexpr std::size_t kFramesAfterStall = 20;  // the good client keeps counting a second's worth after the drop
// At least 200 frames: 99 % then tolerates two ticks the loop folded into one wake-up on a busy machine.
inline constexpr std::size_t kGoodClientWindowFrames = 200;
inline constexpr auto kGoodClientWindowDeadline = kWait;  // 200 frames at 20 Hz take 10 s
inline constexpr auto kStuckDrainDeadline = kWait;

TEST(SessionsAbuse, AClientThatNeverReadsIsClosedAfterTheWriteStallWhileOthersKeepEveryFrame) {
    TempDir dir;
    // Snapshots of ~63 KB at 20 Hz fill a non-reading client's socket within moments.
    ServerProcess server(server_args(dir, {"--write-stall-ms", std::to_string(kWriteStall.count()), "--obstacles", "3000",
                                            "--world-width", "40000", "--world-height", "40000"}));
    ASSERT_TRUE(server.started()) << server.output();

    const auto caught_up_before = steps_caught_up(server.port());  // ticks a late loop sends no frame of are no client's loss
    ASSERT_TRUE(caught_up_before);
    ArenaPlayer good(server.port());
    ASSERT_TRUE(good.joined());
    ASSERT_TRUE(good.wait_for_snapshots(5, kWait));

    const double timeouts_before = family_sum(scrape_metrics(server.port()), "hschool_peer_timeouts_total").value_or(0);
    UpgradeOptions tiny;
    tiny.socket.receive_buffer = kStuckReceiveBuffer;
    auto stuck = RawWs::connect(server.port(), tiny);
    ASSERT_TRUE(stuck);
    ASSERT_TRUE(stuck->send_binary(v1::encode(v1::Hello{v1::kVersion, "stuck"})));
    const auto hello_sent = Clock::now();
    // Never read from here on: only the gauge tells when the server let go.
    ASSERT_TRUE(eventually([&] { return open_connections(server.port(), "1") == 2.0; }, kWait)) << "the stuck client never joined";
    const bool dropped = eventually([&] { return open_connections(server.port(), "1") == 1.0; }, kWriteStall + kStallCloseSlack);
    const auto dropped_after = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - hello_sent);
    EXPECT_TRUE(dropped) << "a client that has not read for " << dropped_after.count() << " ms is still connected";
    EXPECT_GE(dropped_after, kWriteStall) << "dropped before its socket can have been stalled for --write-stall-ms";
    EXPECT_GE(family_sum(scrape_metrics(server.port()), "hschool_peer_timeouts_total").value_or(0), timeouts_before + 1)
        << "the stall was not counted";
    // The good client counts on past the drop, to a window long enough for the 99 % bound to mean something.
    const std::size_t window = std::max(kGoodClientWindowFrames, good.received() + kFramesAfterStall);
    EXPECT_TRUE(good.wait_for_snapshots(window, kGoodClientWindowDeadline)) << "the good client stopped getting snapshots";
    good.stop();
    const auto caught_up_after = steps_caught_up(server.port());
    ASSERT_TRUE(caught_up_after);
    const std::size_t unsent = *caught_up_after - *caught_up_before;
    std::cout << "[ stall    ] dropped " << dropped_after.count() << " ms after Hello; the good client got " << good.received() << "/"
              << good.expected() << " snapshots; " << unsent << " ticks stepped without a frame\n";

    EXPECT_FALSE(good.ended()) << "the good client was closed: " << describe(*good.ended());
    EXPECT_GE(good.delivery(unsent), kGoodClientMinDelivery) << good.received() << " of " << good.expected() << " snapshots, " << unsent << " unsent";

    if (dropped) {
        // What the kernel held is still readable; after it the connection must end (1008 or a plain drop).
        auto end = stuck->read_until_end(kStuckDrainDeadline);
        ASSERT_TRUE(end) << "the stuck client's connection never ended";
        if (end->how == WsEnded::How::CloseFrame) {
            EXPECT_EQ(end->code, 1008) << describe(*end);
        }
    }
}

}  // namespace
}  // namespace hschool::test::abuse
