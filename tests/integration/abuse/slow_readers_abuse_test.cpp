// A slow reader of the arena or of a school is skipped forward, never closed for it (issue 31: the
// same rule as hide-and-seek's spectators, for every WebSocket). A page that takes five messages a
// second of a 20 Hz stream used to read ever older frames — the kernel's buffers held them, and the
// tick ring never saw it was behind; with the delivery window it reads frames at most a few seconds
// old. A client that takes nothing at all still goes after the write stall (sessions_abuse_test).
#include <gtest/gtest.h>

#include <iostream>

#include "abuse_support.hpp"
#include "protocol/v1.hpp"
#include "protocol/v4.hpp"

namespace hschool::test::abuse {
namespace {

namespace sr_v1 = protocol::v1;
namespace sr_v4 = protocol::v4;

constexpr auto kSlowReadFor = 15s;
constexpr double kSlowPageMessages = 5;           // of the loop's 20 a second
constexpr double kAnyLink = 1e9;                  // the bytes are few: the page is what is slow
constexpr int kSlowReaderBuffer = 64 * 1024;
constexpr double kMaxStalenessSeconds = 7;        // the delivery window's 3 s, the ring's 1.6 s, and slack
constexpr double kTickRate = 20;

std::int64_t read_i64(const std::string& payload, std::size_t at) {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= std::uint64_t{static_cast<std::uint8_t>(payload[at + static_cast<std::size_t>(i)])} << (8 * i);
    return static_cast<std::int64_t>(v);
}
std::uint32_t read_u32(const std::string& payload, std::size_t at) {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= std::uint32_t{static_cast<std::uint8_t>(payload[at + static_cast<std::size_t>(i)])} << (8 * i);
    return v;
}

// Reads at the slow page's pace for the whole time; the last value `field` gives of a frame with `id`.
std::optional<std::int64_t> read_slowly(RawWs& ws, std::uint8_t id, const std::function<std::int64_t(const std::string&)>& field) {
    PacedReader slow(ws, kAnyLink, kSlowPageMessages);
    std::optional<std::int64_t> last;
    const auto until = Clock::now() + kSlowReadFor;
    while (Clock::now() < until) {
        auto event = slow.next(2s);
        if (const auto* end = std::get_if<WsEnded>(&event)) {
            ADD_FAILURE() << "the slow reader was closed after " << slow.messages() << " messages: " << describe(*end);
            return std::nullopt;
        }
        const auto* m = std::get_if<WsMessage>(&event);
        if (m && !m->payload.empty() && static_cast<std::uint8_t>(m->payload[0]) == id) {
            const auto value = field(m->payload);
            if (last) {
                EXPECT_GE(value, *last) << "frames came out of order";
            }
            last = value;
        }
    }
    return last;
}

std::unique_ptr<RawWs> school_watcher(std::uint16_t port, std::int32_t school, int receive_buffer = 0) {
    UpgradeOptions options;
    options.socket.receive_buffer = receive_buffer;
    auto ws = join(port, sr_v4::encode(sr_v4::Hello{sr_v4::kVersion, 0}), options);
    if (!ws || !ws->send_binary(sr_v4::encode(sr_v4::OpenSchool{school})) || !ws->read_until_id(sr_v4::id::kMapSnapshot)) return nullptr;
    return ws;
}

std::int64_t clock_time(const std::string& payload) { return read_i64(payload, 5); }

TEST(SlowReadersAbuse, ASchoolWatcherTakingFiveClocksASecondIsSkippedForwardNotClosed) {
    TempDir dir;
    ServerProcess server(server_args(dir));
    ASSERT_TRUE(server.started()) << server.output();
    const auto school = create_school(server.port(), "slow readers");
    ASSERT_TRUE(school);
    auto slow = school_watcher(server.port(), *school, kSlowReaderBuffer);
    ASSERT_TRUE(slow);
    const auto last = read_slowly(*slow, sr_v4::id::kClock, clock_time);
    ASSERT_TRUE(last) << "no Clock read";
    // What the school's clock says now, and how fast it runs, from a reader that keeps up.
    auto probe = school_watcher(server.port(), *school);
    ASSERT_TRUE(probe);
    probe->set_auto_pong(true);
    const auto first = probe->read_until_id(sr_v4::id::kClock);
    ASSERT_TRUE(first);
    const auto first_at = Clock::now();
    std::optional<WsMessage> later;
    while (Clock::now() < first_at + 1s)
        if (auto next = probe->read_until_id(sr_v4::id::kClock, 200ms)) later = std::move(next);
    ASSERT_TRUE(later);
    const double real_seconds = std::chrono::duration<double>(Clock::now() - first_at).count();
    const double per_second = static_cast<double>(clock_time(later->payload) - clock_time(first->payload)) / real_seconds;
    ASSERT_GT(per_second, 0) << "the school's clock does not run";
    const double stale = static_cast<double>(clock_time(first->payload) - *last) / per_second;
    std::cout << "[ schools  ] the slow watcher's last clock was " << stale << " s old after " << kSlowReadFor.count() << " s\n";
    EXPECT_LT(stale, kMaxStalenessSeconds) << "it read ever older clocks instead of being skipped forward";
    EXPECT_FALSE(slow->ended());
}

TEST(SlowReadersAbuse, AnArenaPlayerTakingFiveSnapshotsASecondIsSkippedForwardNotClosed) {
    TempDir dir;
    ServerProcess server(server_args(dir));
    ASSERT_TRUE(server.started()) << server.output();
    UpgradeOptions small;
    small.socket.receive_buffer = kSlowReaderBuffer;
    auto slow = join(server.port(), sr_v1::encode(sr_v1::Hello{sr_v1::kVersion, "slow"}), small);
    ASSERT_TRUE(slow);
    const auto last = read_slowly(*slow, sr_v1::id::kSnapshot, [](const std::string& p) { return std::int64_t{read_u32(p, 1)}; });
    ASSERT_TRUE(last) << "no Snapshot read";
    auto probe = join(server.port(), sr_v1::encode(sr_v1::Hello{sr_v1::kVersion, "probe"}));
    ASSERT_TRUE(probe);
    probe->set_auto_pong(true);
    const auto now = probe->read_until_id(sr_v1::id::kSnapshot);
    ASSERT_TRUE(now);
    const double stale = static_cast<double>(read_u32(now->payload, 1) - static_cast<std::uint32_t>(*last)) / kTickRate;
    std::cout << "[ arena    ] the slow player's last snapshot was " << stale << " s old after " << kSlowReadFor.count() << " s\n";
    EXPECT_LT(stale, kMaxStalenessSeconds) << "it read ever older snapshots instead of being skipped forward";
    EXPECT_FALSE(slow->ended());
}

}  // namespace
}  // namespace hschool::test::abuse
