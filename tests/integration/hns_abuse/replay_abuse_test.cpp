// /replay viewers under attack (issue 19 point 5), against the real server: 64 viewers of a long
// replay press 'e' once and then 'b' every 250 ms, and every one of them still gets frames (before,
// each 'b' re-stepped the replay from tick 0 and the 64 threads were CPU-bound at 0.4 frames/s);
// a viewer that stops reading for a while is resynced, not closed; a flood of keys closes its
// socket with 1008.
#include <gtest/gtest.h>

#include <iostream>

#include "hns_abuse_support.hpp"

namespace hschool::test::hns_abuse {
namespace {

constexpr int kViewers = 64;       // the server's cap on replay viewers in all
constexpr auto kBackPeriod = 250ms;  // each viewer presses 'b' this often while it is counted
constexpr int kMinFrames = 20;     // frames each viewer must get meanwhile (before: ~12 in the whole bound)
constexpr auto kCountFor = 30s;    // the bound on waiting for them
// Per viewer: one sim cursor (~0.65 MB), at most a 2 MiB backlog and a frame being built (a keyframe
// is 1.45 MB); the keyframes are shared. Without the backlog bound a slow viewer alone could hold 8 MiB.
constexpr std::size_t kMaxRssGrowth = kViewers * (5u << 20) + (64u << 20);
// About 4,000 ticks: certification with a long hunt, played out at 16 ticks per frame.
const std::string kLongHunt = R"({"huntTurns":40,"maxGames":1})";

std::string finished_long_match(std::uint16_t port) {
    const std::string id = create_bot_match(port, "certification", kLongHunt);
    if (id.empty()) return "";
    const auto code = hns::play_out(port, id, 90s);
    return code == 1000 ? id : "";
}

TEST(HnsReplayAbuse, SixtyFourViewersPressingEndThenBackAllKeepGettingFrames) {
    TempDir dir;
    ServerProcess server(server_args(dir), rss_launch());
    ASSERT_TRUE(server.started()) << server.output();
    const std::string id = finished_long_match(server.port());
    ASSERT_FALSE(id.empty()) << "the match did not finish";
    nice_this_thread(10);  // the test's readers must not starve the server they measure
    const auto rss_before = rss_bytes(server.pid()).value_or(0);
    std::vector<std::unique_ptr<RawWs>> viewers;
    for (int i = 0; i < kViewers; ++i) {
        // From many loopback addresses: the per-address caps are another test's business.
        viewers.push_back(sprite_socket(server.port(), "/replay?match=" + id, 2 + i));
        ASSERT_TRUE(viewers.back()) << "viewer " << i;
    }
    for (auto& v : viewers) ASSERT_TRUE(send_text_key(*v, "e"));
    // From here on every viewer presses 'b' every 250 ms, and its frames are counted.
    std::vector<int> frames(kViewers, 0);
    const auto until = Clock::now() + kCountFor;
    auto next_back = Clock::now();
    int done = 0;
    while (Clock::now() < until && done < kViewers) {
        if (Clock::now() >= next_back) {
            for (auto& v : viewers) ASSERT_TRUE(send_text_key(*v, "b"));
            next_back += kBackPeriod;
        }
        done = 0;
        for (int i = 0; i < kViewers; ++i) {
            auto& v = *viewers[static_cast<std::size_t>(i)];
            for (int burst = 0; burst < 16; ++burst) {
                auto event = v.read(1ms);
                if (std::holds_alternative<WsEnded>(event)) FAIL() << "viewer " << i << " closed: " << describe(event);
                auto* m = std::get_if<WsMessage>(&event);
                if (!m) break;
                if (m->op == opcode::kBinary) ++frames[static_cast<std::size_t>(i)];
            }
            done += frames[static_cast<std::size_t>(i)] >= kMinFrames;
        }
    }
    const int least = *std::min_element(frames.begin(), frames.end());
    std::cout << "[ replay   ] " << done << "/" << kViewers << " viewers got " << kMinFrames
              << " frames while pressing b every 250 ms; the least got " << least << "\n";
    EXPECT_EQ(done, kViewers);
    const auto rss_after = rss_bytes(server.pid()).value_or(0);
    std::cout << "[ replay   ] server RSS " << (rss_before >> 20) << " → " << (rss_after >> 20) << " MB\n";
    EXPECT_LT(rss_after, rss_before + kMaxRssGrowth);
}

TEST(HnsReplayAbuse, AViewerThatStopsReadingIsResyncedNotClosed) {
    constexpr auto kStall = 8000ms;  // --write-stall-ms: the pause stays well within it
    constexpr auto kPause = 3000ms;
    TempDir dir;
    ServerProcess server(server_args(dir, {"--write-stall-ms", std::to_string(kStall.count())}));
    ASSERT_TRUE(server.started()) << server.output();
    const std::string id = create_bot_match(server.port(), "certification");
    ASSERT_FALSE(id.empty());
    ASSERT_EQ(hns::play_out(server.port(), id), std::optional<std::uint16_t>(1000));
    const std::string resyncs = R"(hschool_hns_viewer_resyncs_total{stream="replay"})";
    const double before = counter(server.port(), resyncs);
    auto viewer = sprite_socket(server.port(), "/replay?match=" + id, 1, 64 * 1024);
    ASSERT_TRUE(viewer);
    ASSERT_TRUE(send_text_key(*viewer, "6"));  // 16 ticks a frame: big frames, so the pause overflows
    ASSERT_TRUE(send_text_key(*viewer, "r"));  // and loop, so it never runs out of replay
    std::this_thread::sleep_for(kPause);
    EXPECT_GE(counter(server.port(), resyncs), before + 1) << "the paused viewer never fell behind";
    // Reading again: what the kernel held, then a keyframe (a second header), then frames.
    int headers = 0, after = 0;
    const auto until = Clock::now() + 20s;
    while (Clock::now() < until && after < 20) {
        auto event = viewer->read(100ms);
        if (std::holds_alternative<WsEnded>(event)) FAIL() << "the paused viewer was closed: " << describe(event);
        auto* m = std::get_if<WsMessage>(&event);
        if (!m || m->op != opcode::kBinary) continue;
        if (is_global_header(m->payload)) ++headers;
        else if (headers >= 2) ++after;
    }
    EXPECT_GE(headers, 2) << "no keyframe after the pause";
    EXPECT_GE(after, 20);
}

TEST(HnsReplayAbuse, AFloodOfKeysClosesTheViewerWith1008) {
    TempDir dir;
    ServerProcess server(server_args(dir));
    ASSERT_TRUE(server.started()) << server.output();
    const std::string id = create_bot_match(server.port(), "certification");
    ASSERT_FALSE(id.empty());
    ASSERT_EQ(hns::play_out(server.port(), id), std::optional<std::uint16_t>(1000));
    auto viewer = sprite_socket(server.port(), "/replay?match=" + id);
    ASSERT_TRUE(viewer);
    // Hundreds of keys in one burst: far more than a person presses in a frame.
    std::string burst;
    for (int i = 0; i < 500; ++i) burst += client_frame(opcode::kBinary, hns::text_message("p"));
    ASSERT_TRUE(viewer->send_raw(burst));
    auto end = viewer->read_until_end(10s);
    ASSERT_TRUE(end) << "the flooding viewer is still connected";
    EXPECT_EQ(end->how, WsEnded::How::CloseFrame) << describe(*end);
    EXPECT_EQ(end->code, 1008) << end->reason;
}

}  // namespace
}  // namespace hschool::test::hns_abuse
