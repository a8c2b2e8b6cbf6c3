// Spectators under load (issue 19 point 4), against the real server: N spectators of one match cost
// its thread one diff per tick, not N; a spectator that stops reading for a while has its backlog
// dropped and gets a keyframe when it reads again — it is not closed and the server does not grow —
// while one that never reads is closed after the write stall.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <iostream>

#include "hns_abuse_support.hpp"

namespace hschool::test::hns_abuse {
namespace {

constexpr int kSpectators = 8;
constexpr int kFramesEach = 10;            // frames every in-step spectator is read for the encode count
// --write-stall-ms for the stall test: the silent spectator goes this long after its window shut,
// which is when the slow one fell behind beside it; the slow one answers its Pings again long before.
constexpr auto kWriteStall = 10000ms;
constexpr int kSmallReceiveBuffer = 64 * 1024;  // a pause fills the socket at once; reading is still quick
constexpr std::size_t kMaxSpectatorRssGrowth = 96u << 20;  // a few backlogs at most, not one per tick

const std::string kDeltas = R"(hschool_hns_spectator_encodes_total{kind="delta"})";
const std::string kResyncs = R"(hschool_hns_viewer_resyncs_total{stream="global"})";

// One pass over the sockets, each read while it has messages waiting; adds binary messages per socket.
void read_pass(std::vector<std::unique_ptr<RawWs>>& sockets, std::vector<int>& counts) {
    counts.resize(sockets.size(), 0);
    for (std::size_t i = 0; i < sockets.size(); ++i) {
        for (int burst = 0; burst < 16; ++burst) {
            auto event = sockets[i]->read(1ms);
            auto* m = std::get_if<WsMessage>(&event);
            if (!m) break;
            if (m->op == opcode::kBinary) ++counts[i];
        }
    }
}

// Reads every socket in turn until each has had `each` binary messages and `also` holds, or kWait
// passes; the messages per socket.
std::vector<int> read_until(std::vector<std::unique_ptr<RawWs>>& sockets, int each, const std::function<bool()>& also = [] { return true; }) {
    std::vector<int> counts(sockets.size(), 0);
    for (const auto until = Clock::now() + kWait; Clock::now() < until;) {
        read_pass(sockets, counts);
        if (*std::min_element(counts.begin(), counts.end()) >= each && also()) break;
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
    read_until(spectators, 1);  // every one has had its keyframe
    const double deltas = counter(server.port(), kDeltas);
    const auto tick = hns::match_tick(server.port(), id);
    // Each spectator is read for kFramesEach frames over more than 10 ticks: N separate encoders
    // would show as N diffs a tick.
    const auto counts = read_until(spectators, kFramesEach + 1, [&] { return hns::match_tick(server.port(), id) - tick > 10; });
    const double encoded = counter(server.port(), kDeltas) - deltas;
    const auto ticks = hns::match_tick(server.port(), id) - tick;
    std::cout << "[ encodes  ] " << encoded << " shared diffs for " << ticks << " ticks and " << kSpectators << " spectators\n";
    ASSERT_GT(ticks, 10) << "the match did not play";
    EXPECT_GT(encoded, 0);
    // One diff per frame (a frame is at least one tick) for all of them: N spectators would be N×.
    EXPECT_LE(encoded, static_cast<double>(ticks) + 2);
    for (int i = 0; i < kSpectators; ++i) EXPECT_GT(counts[static_cast<std::size_t>(i)], kFramesEach) << "spectator " << i;
}

// The slow spectator and the silent one read nothing from the start (their small receive buffers
// fill at once): each falls behind by construction. The test waits for the server to say so (two
// resyncs), then the slow one reads again and must get a second keyframe — the resync — and go on
// without being closed; the silent one must be closed by the write stall. Without the resync (a
// backlog kept, or the viewer closed) the slow one sees no second keyframe or ends; without the
// stall rule the silent one stays connected.
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

    // The reader goes on, so the match keeps sending diffs while the two are behind.
    std::vector<std::unique_ptr<RawWs>> readers;
    readers.push_back(std::move(reader));
    std::vector<int> read;
    const bool fell_behind = eventually(
        [&] {
            read_pass(readers, read);
            return counter(server.port(), kResyncs) >= resyncs + 2;
        },
        kWait, 10ms);
    ASSERT_TRUE(fell_behind) << "the two that read nothing never fell behind in " << kWait.count() << " ms";
    const auto rss_paused = rss_bytes(server.pid()).value_or(0);
    EXPECT_LT(rss_paused, rss_before + kMaxSpectatorRssGrowth) << rss_before << " → " << rss_paused;

    // It reads again: what the kernel held (from the keyframe it got on joining), then a second
    // keyframe — the resync — then the shared diff.
    int headers = 0, after = 0, messages = 0;
    for (const auto until = Clock::now() + kWait; Clock::now() < until && after < 20;) {
        auto event = slow->read(100ms);
        if (std::holds_alternative<WsEnded>(event)) FAIL() << "the slow spectator was closed: " << describe(event);
        read_pass(readers, read);
        auto* m = std::get_if<WsMessage>(&event);
        if (!m || m->op != opcode::kBinary) continue;
        ++messages;
        if (is_global_header(m->payload)) ++headers;
        else if (headers >= 2) ++after;
    }
    EXPECT_GE(headers, 2) << "no resync keyframe after the pause in " << messages << " messages";
    EXPECT_GE(after, 20) << "no shared frames after the keyframe";

    // The silent one never read: closed once its socket took nothing for the write stall (the
    // gauge says so; reading it now would un-stall it). The other two are read all the while: the
    // two left connected are they.
    const RawWs& slow_one = *slow;
    readers.push_back(std::move(slow));
    ASSERT_TRUE(eventually(
        [&] {
            read_pass(readers, read);
            return open_connections(server.port(), "sprite") == 2.0;
        },
        kWriteStall + kWait, 10ms))
        << "a spectator that never reads is still connected";
    EXPECT_GE(Clock::now() - silent_since, kWriteStall);
    EXPECT_TRUE(silent->read_until_end(kWait)) << "its connection did not end";
    EXPECT_FALSE(slow_one.ended()) << "the slow spectator was closed";
    std::cout << "[ resync   ] rss " << (rss_before >> 20) << " → " << (rss_paused >> 20) << " MB while behind; resyncs "
              << counter(server.port(), kResyncs) - resyncs << "\n";
}

}  // namespace
}  // namespace hschool::test::hns_abuse
