// Spectators under load (issue 19 point 4), against the real server: N spectators of one match cost
// its thread one diff per tick, not N; a spectator that stops reading for a while has its backlog
// dropped and gets a keyframe when it reads again — it is not closed and the server does not grow —
// while one that never reads is closed after the write stall.
#include <gtest/gtest.h>

#include <iostream>

#include "hns_abuse_support.hpp"

namespace hschool::test::hns_abuse {
namespace {

constexpr int kSpectators = 8;
constexpr auto kWatch = 3s;                 // how long the in-step spectators are read
constexpr auto kWriteStall = 4000ms;        // --write-stall-ms for the stall test
constexpr auto kPause = 2000ms;             // the slow spectator's pause: well within the stall
constexpr int kSmallReceiveBuffer = 64 * 1024;  // a pause fills the socket at once; reading is still quick
constexpr std::size_t kMaxSpectatorRssGrowth = 96u << 20;  // a few backlogs at most, not one per tick

const std::string kDeltas = R"(hschool_hns_spectator_encodes_total{kind="delta"})";
const std::string kResyncs = R"(hschool_hns_viewer_resyncs_total{stream="global"})";

// Reads every socket in turn for `span`; binary messages per socket.
std::vector<int> read_all_for(std::vector<std::unique_ptr<RawWs>>& sockets, std::chrono::milliseconds span) {
    std::vector<int> counts(sockets.size(), 0);
    const auto until = Clock::now() + span;
    while (Clock::now() < until) {
        for (std::size_t i = 0; i < sockets.size(); ++i) {
            for (int burst = 0; burst < 16; ++burst) {
                auto event = sockets[i]->read(1ms);
                auto* m = std::get_if<WsMessage>(&event);
                if (!m) break;
                if (m->op == opcode::kBinary) ++counts[i];
            }
        }
    }
    return counts;
}

TEST(HnsSpectatorsAbuse, ManySpectatorsCostTheMatchOneEncodePerTick) {
    TempDir dir;
    ServerProcess server(server_args(dir));
    ASSERT_TRUE(server.started()) << server.output();
    const std::string id = create_bot_match(server.port(), "certification");
    ASSERT_FALSE(id.empty());
    std::vector<std::unique_ptr<RawWs>> spectators;
    for (int i = 0; i < kSpectators; ++i) {
        spectators.push_back(sprite_socket(server.port(), "/global?match=" + id));
        ASSERT_TRUE(spectators.back());
    }
    read_all_for(spectators, 1s);  // every one has had its keyframe
    const double deltas = counter(server.port(), kDeltas);
    const auto tick = hns::match_tick(server.port(), id);
    const auto counts = read_all_for(spectators, kWatch);
    const double encoded = counter(server.port(), kDeltas) - deltas;
    const auto ticks = hns::match_tick(server.port(), id) - tick;
    std::cout << "[ encodes  ] " << encoded << " shared diffs for " << ticks << " ticks and " << kSpectators << " spectators\n";
    ASSERT_GT(ticks, 10) << "the match did not play";
    EXPECT_GT(encoded, 0);
    // One diff per frame (a frame is at least one tick) for all of them: N spectators would be N×.
    EXPECT_LE(encoded, static_cast<double>(ticks) + 2);
    for (int i = 0; i < kSpectators; ++i) EXPECT_GT(counts[static_cast<std::size_t>(i)], 10) << "spectator " << i;
}

TEST(HnsSpectatorsAbuse, ASlowSpectatorIsResyncedNotClosedAndOneThatNeverReadsGoesAfterTheStall) {
    TempDir dir;
    ServerProcess server(server_args(dir, {"--write-stall-ms", std::to_string(kWriteStall.count())}), rss_launch());
    ASSERT_TRUE(server.started()) << server.output();
    const std::string id = create_bot_match(server.port(), "certification");
    ASSERT_FALSE(id.empty());
    auto reader = sprite_socket(server.port(), "/global?match=" + id);
    auto slow = sprite_socket(server.port(), "/global?match=" + id, 1, kSmallReceiveBuffer);
    auto silent = sprite_socket(server.port(), "/global?match=" + id, 1, kSmallReceiveBuffer);
    ASSERT_TRUE(reader && slow && silent);
    const auto silent_since = Clock::now();
    const auto rss_before = rss_bytes(server.pid()).value_or(0);
    const double resyncs = counter(server.port(), kResyncs);

    // The slow one pauses; the reader goes on, so the match keeps sending.
    std::vector<std::unique_ptr<RawWs>> readers;
    readers.push_back(std::move(reader));
    read_all_for(readers, kPause);
    EXPECT_GE(counter(server.port(), kResyncs), resyncs + 1) << "nobody fell behind in " << kPause.count() << " ms";
    const auto rss_paused = rss_bytes(server.pid()).value_or(0);
    EXPECT_LT(rss_paused, rss_before + kMaxSpectatorRssGrowth) << rss_before << " → " << rss_paused;

    // It reads again: what the kernel held (from the keyframe it got on joining), then a second
    // keyframe — the resync — then the shared diff.
    int headers = 0, after = 0, messages = 0;
    const auto until = Clock::now() + 10s;
    while (Clock::now() < until && after < 20) {
        auto event = slow->read(100ms);
        if (std::holds_alternative<WsEnded>(event)) FAIL() << "the slow spectator was closed: " << describe(event);
        auto* m = std::get_if<WsMessage>(&event);
        if (!m || m->op != opcode::kBinary) continue;
        ++messages;
        if (is_global_header(m->payload)) ++headers;
        else if (headers >= 2) ++after;
        read_all_for(readers, 1ms);
    }
    EXPECT_GE(headers, 2) << "no resync keyframe after the pause in " << messages << " messages";
    EXPECT_GE(after, 20) << "no shared frames after the keyframe";

    // The silent one never read: closed once its socket took nothing for the write stall (the
    // gauge says so; reading it now would un-stall it).
    ASSERT_TRUE(eventually([&] { return open_connections(server.port(), "sprite") == 2.0; }, kWriteStall + 10s))
        << "a spectator that never reads is still connected";
    EXPECT_GE(Clock::now() - silent_since, kWriteStall);
    EXPECT_TRUE(silent->read_until_end(10s)) << "its connection did not end";
    EXPECT_FALSE(slow->ended());
    std::cout << "[ resync   ] rss " << (rss_before >> 20) << " → " << (rss_paused >> 20) << " MB while paused; resyncs "
              << counter(server.port(), kResyncs) - resyncs << "\n";
}

}  // namespace
}  // namespace hschool::test::hns_abuse
