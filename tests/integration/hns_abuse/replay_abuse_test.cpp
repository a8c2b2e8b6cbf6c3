// /replay viewers under attack (issue 19 point 5), against the real server: 64 viewers of a long
// replay press 'e' once and then 'b' again and again, and every seek re-steps at most a keyframe
// interval (before, each 'b' re-stepped the replay from tick 0 and the 64 threads were CPU-bound
// at 0.4 frames/s) while every viewer keeps getting frames; a viewer that stops reading for a while
// is resynced, not closed; a flood of keys closes its socket with 1008. How fast the viewers get
// their frames is measured by `make bench` (bench/README, section hns-crowd), not here.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>

#include "hns_abuse_support.hpp"

namespace hschool::test::hns_abuse {
namespace {

constexpr int kViewers = 64;          // the server's cap on replay viewers in all
constexpr auto kBackPeriod = 250ms;   // a viewer presses 'b' at most this often...
constexpr int kFramesPerBack = 1;     // ...and only once this many frames came since its last 'b'
constexpr int kMinFrames = 20;        // frames each viewer must get while it presses
// The 64 viewers' seeks and frames: a quiet machine needs seconds, the replay threads are at nice 10.
constexpr std::chrono::milliseconds kCrowdWait = 300s;
// Per viewer: one sim cursor (~0.65 MB), at most a 2 MiB backlog and a frame being built (a keyframe
// is 1.45 MB); the keyframes are shared. Without the backlog bound a slow viewer alone could hold 8 MiB.
constexpr std::size_t kMaxRssGrowth = kViewers * (5u << 20) + (64u << 20);
// About 4,000 ticks: certification with a long hunt, played out at 16 ticks per frame.
const std::string kLongHunt = R"({"huntTurns":40,"maxGames":1})";
// Keyframes are at most max(256, ticks / 4) apart (docs/hide-and-seek.md): for a replay of at most
// 8,192 ticks every seek from one steps at most 1024 ticks, the histogram bucket below.
constexpr std::int64_t kMaxTicksForTheBound = 8192;
const std::string kSeeks = "hschool_hns_replay_seek_steps_count";
const std::string kSeeksWithinBound = R"(hschool_hns_replay_seek_steps_bucket{le="1024"})";

// Seeks so far and those within the bound, from one scrape (a seek may end between two).
struct SeekCounts {
    double all = 0, within = 0;
};
SeekCounts seek_counts(std::uint16_t port) {
    const auto metrics = scrape_metrics(port);
    return {series(metrics, kSeeks).value_or(-1), series(metrics, kSeeksWithinBound).value_or(-1)};
}

std::string finished_long_match(std::uint16_t port) {
    const std::string id = create_bot_match(port, "certification", kLongHunt);
    if (id.empty()) return "";
    const auto code = hns::play_out(port, id);
    return code == 1000 ? id : "";
}

// The pace is the viewers' own: a 'b' needs a frame since the last one, so a starved server gets
// fewer keys, never a pile of them (64 waiting close the socket, kMaxQueuedReplayKeys). What is
// asserted is the work each seek costs, read from the server's own histogram, and that every
// viewer keeps getting frames. With the old seek (from tick 0) every 'b' steps ~4,000 ticks and
// lands above the 1024 bucket.
TEST(HnsReplayAbuse, SixtyFourViewersPressingEndThenBackAllKeepGettingFrames) {
    TempDir dir;
    // The readers below run at nice 10: on a busy machine they may take nothing for seconds, and the
    // write stall dropped one (a loaded run under the sanitizers). Stalls are other tests' business.
    ServerProcess server(server_args(dir, {"--write-stall-ms", std::to_string(kCrowdWait.count())}), rss_launch());
    ASSERT_TRUE(server.started()) << server.output();
    const std::string id = finished_long_match(server.port());
    ASSERT_FALSE(id.empty()) << "the match did not finish";
    const auto ticks = hns::match_tick(server.port(), id);
    ASSERT_GT(ticks, 2000) << "the replay is too short for seeks to cost anything";
    ASSERT_LE(ticks, kMaxTicksForTheBound);
    nice_this_thread(10);  // the test's readers must not starve the server they measure
    const auto rss_before = rss_bytes(server.pid()).value_or(0);
    std::vector<std::unique_ptr<RawWs>> viewers;
    for (int i = 0; i < kViewers; ++i) {
        // From many loopback addresses: the per-address caps are another test's business.
        viewers.push_back(sprite_socket(server.port(), "/replay?match=" + id, 2 + i));
        ASSERT_TRUE(viewers.back()) << "viewer " << i;
    }
    std::vector<int> frames(kViewers, 0);
    // Reads what each viewer has waiting; false when one was closed.
    auto read_all = [&]() -> ::testing::AssertionResult {
        for (int i = 0; i < kViewers; ++i) {
            auto& v = *viewers[static_cast<std::size_t>(i)];
            for (int burst = 0; burst < 16; ++burst) {
                auto event = v.read(1ms);
                if (std::holds_alternative<WsEnded>(event))
                    return ::testing::AssertionFailure() << "viewer " << i << " closed: " << describe(event);
                auto* m = std::get_if<WsMessage>(&event);
                if (!m) break;
                if (m->op == opcode::kBinary) ++frames[static_cast<std::size_t>(i)];
            }
        }
        return ::testing::AssertionSuccess();
    };
    // Every viewer jumps to the end; the first ones step the replay and leave the shared keyframes.
    const double seeks_before_end = counter(server.port(), kSeeks);
    for (auto& v : viewers) ASSERT_TRUE(send_text_key(*v, "e"));
    const bool all_at_end = eventually(
        [&] {
            if (!read_all()) return true;  // the failure shows below
            return counter(server.port(), kSeeks) >= seeks_before_end + kViewers;
        },
        kCrowdWait);
    ASSERT_TRUE(read_all());
    ASSERT_TRUE(all_at_end) << "the 64 jumps to the end did not all arrive in " << kCrowdWait.count() << " ms";

    // From here on every viewer presses 'b' (paced as above), and its frames are counted.
    const SeekCounts before_backs = seek_counts(server.port());
    std::fill(frames.begin(), frames.end(), 0);
    std::vector<int> frames_at_back(kViewers, -kFramesPerBack);
    std::vector<Clock::time_point> last_back(kViewers, Clock::time_point{});
    int done = 0, backs = 0;
    // A seek beyond the bound is the failure: the test stops there rather than wait out the deadline.
    auto seeks_beyond_bound = [&] {
        const SeekCounts now = seek_counts(server.port());
        return now.all - before_backs.all > now.within - before_backs.within;
    };
    auto next_look = Clock::now();
    for (const auto until = Clock::now() + kCrowdWait; Clock::now() < until && done < kViewers;) {
        if (Clock::now() >= next_look) {
            if (seeks_beyond_bound()) break;
            next_look += 1s;
        }
        for (int i = 0; i < kViewers; ++i) {
            const auto k = static_cast<std::size_t>(i);
            if (frames[k] - frames_at_back[k] >= kFramesPerBack && Clock::now() - last_back[k] >= kBackPeriod) {
                ASSERT_TRUE(send_text_key(*viewers[k], "b"));
                frames_at_back[k] = frames[k];
                last_back[k] = Clock::now();
                ++backs;
            }
        }
        ASSERT_TRUE(read_all());
        done = static_cast<int>(std::count_if(frames.begin(), frames.end(), [](int f) { return f >= kMinFrames; }));
    }
    const int least = *std::min_element(frames.begin(), frames.end());
    std::cout << "[ replay   ] " << done << "/" << kViewers << " viewers got " << kMinFrames << " frames while pressing b ("
              << backs << " presses); the least got " << least << "\n";
    EXPECT_EQ(done, kViewers);
    const SeekCounts after_backs = seek_counts(server.port());
    const double back_seeks = after_backs.all - before_backs.all;
    const double back_seeks_within = after_backs.within - before_backs.within;
    std::cout << "[ replay   ] " << back_seeks << " seeks back in a replay of " << ticks << " ticks, " << back_seeks_within
              << " of them within 1024 steps\n";
    EXPECT_GE(back_seeks, kViewers) << "the viewers' 'b' made no seeks";
    EXPECT_EQ(back_seeks_within, back_seeks) << "a seek back re-stepped more than a keyframe interval";
    const auto rss_after = rss_bytes(server.pid()).value_or(0);
    std::cout << "[ replay   ] server RSS " << (rss_before >> 20) << " → " << (rss_after >> 20) << " MB\n";
    EXPECT_LT(rss_after, rss_before + kMaxRssGrowth);
}

// The viewer reads nothing from its first key on (a small receive buffer and big frames fill at
// once), so it falls behind by construction; the test waits for the server to count the resync,
// then reads: a second header (the keyframe) and frames after it. Without the resync it would be
// closed 1008 or read the old backlog, with no second header.
TEST(HnsReplayAbuse, AViewerThatStopsReadingIsResyncedNotClosed) {
    constexpr auto kStall = 10000ms;  // --write-stall-ms: room between the resync and the reads that follow
    TempDir dir;
    ServerProcess server(server_args(dir, {"--write-stall-ms", std::to_string(kStall.count())}));
    ASSERT_TRUE(server.started()) << server.output();
    const std::string id = played_out_bot_match(server.port());
    ASSERT_FALSE(id.empty());
    const std::string resyncs = R"(hschool_hns_viewer_resyncs_total{stream="replay"})";
    const double before = counter(server.port(), resyncs);
    auto viewer = sprite_socket(server.port(), "/replay?match=" + id, 1, 64 * 1024);
    ASSERT_TRUE(viewer);
    ASSERT_TRUE(send_text_key(*viewer, "6"));  // 16 ticks a frame: big frames, so the socket fills
    ASSERT_TRUE(send_text_key(*viewer, "r"));  // and loop, so it never runs out of replay
    EXPECT_TRUE(eventually([&] { return counter(server.port(), resyncs) >= before + 1; }, kWait))
        << "the viewer that reads nothing never fell behind";
    // Reading again: what the kernel held, then a keyframe (a second header), then frames.
    int headers = 0, after = 0;
    for (const auto until = Clock::now() + kWait; Clock::now() < until && after < 20;) {
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
    const std::string id = played_out_bot_match(server.port());
    ASSERT_FALSE(id.empty());
    auto viewer = sprite_socket(server.port(), "/replay?match=" + id);
    ASSERT_TRUE(viewer);
    // Hundreds of keys in one burst: far more than a person presses in a frame.
    std::string burst;
    for (int i = 0; i < 500; ++i) burst += client_frame(opcode::kBinary, hns::text_message("p"));
    ASSERT_TRUE(viewer->send_raw(burst));
    auto end = viewer->read_until_end(kWait);
    ASSERT_TRUE(end) << "the flooding viewer is still connected";
    EXPECT_EQ(end->how, WsEnded::How::CloseFrame) << describe(*end);
    EXPECT_EQ(end->code, 1008) << end->reason;
}

}  // namespace
}  // namespace hschool::test::hns_abuse
