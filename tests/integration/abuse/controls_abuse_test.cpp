// v4 controls that change nothing (SetRunning to the state the school already has, SetSpeed to its
// current speed) neither persist nor wake the store. Seen from outside: while another process holds
// the database's write lock, a store that is woken runs into the busy timeout and reports a store
// error; one that is left asleep reports nothing.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <SQLiteCpp/SQLiteCpp.h>

#include <thread>

#include "abuse_support.hpp"
#include "protocol/v4.hpp"

namespace hschool::test::abuse {
namespace {

namespace v4 = protocol::v4;

inline constexpr auto kStoreQuiet = 1s;  // four of the store's 250 ms commit intervals without a write
inline constexpr auto kSettleDeadline = kWait;
inline constexpr auto kServerBusyTimeout = 5s;  // kBusyTimeoutMs: how long a store write waits on a lock
inline constexpr auto kErrorSlack = 1500ms;     // commit interval, metrics poll, a loaded machine
inline constexpr int kNoOpControls = 20;        // of each kind
inline constexpr auto kControlSpacing = 25ms;   // 80 frames a second: well inside any inbound budget
inline constexpr auto kPoll = 25ms;
inline constexpr auto kMetricsPoll = 100ms;
// Size and modification time (ns) of the database and its WAL; what any commit changes.
std::vector<std::int64_t> database_stamps(const std::filesystem::path& db) {
    std::vector<std::int64_t> stamps;
    for (const auto& path : {db, std::filesystem::path(db.string() + "-wal")}) {
        struct stat info {};
        if (::stat(path.c_str(), &info) != 0) {
            stamps.insert(stamps.end(), {-1, -1});
            continue;
        }
        stamps.push_back(info.st_size);
        stamps.push_back(std::int64_t(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec);
    }
    return stamps;
}

// Waits until the files have not changed for kStoreQuiet; whether that happened before the deadline.
bool store_settles(const std::filesystem::path& db) {
    const auto deadline = Clock::now() + kSettleDeadline;
    auto last = database_stamps(db);
    auto quiet_since = Clock::now();
    while (Clock::now() < deadline) {
        std::this_thread::sleep_for(kPoll);
        const auto now = database_stamps(db);
        if (now != last) {
            last = now;
            quiet_since = Clock::now();
        } else if (Clock::now() - quiet_since >= kStoreQuiet) {
            return true;
        }
    }
    return false;
}

// The next Clock of the school, skipping pongs and the rest.
std::optional<v4::Clock> next_clock(RawWs& ws) {
    for (int i = 0; i < 100; ++i) {
        auto frame = ws.read_until_id(v4::id::kClock);
        if (!frame) return std::nullopt;
        auto decoded = v4::decode_server(frame->bytes());
        if (decoded) return std::get<v4::Clock>(decoded.value());
    }
    return std::nullopt;
}

double store_errors(std::uint16_t port) { return family_sum(scrape_metrics(port), "hschool_store_errors_total").value_or(0); }

TEST(ControlsAbuse, ControlsThatChangeNothingDoNotWakeTheStore) {
    TempDir dir;
    const auto db_path = dir.path() / "hschool.db";
    ServerProcess server(server_args(dir));
    ASSERT_TRUE(server.started()) << server.output();
    const auto school = create_school(server.port(), "Quiet");
    ASSERT_TRUE(school);
    auto ws = join(server.port(), v4::encode(v4::Hello{v4::kVersion, 0}));
    ASSERT_TRUE(ws);
    ws->set_auto_pong(true);
    ASSERT_TRUE(ws->send_binary(v4::encode(v4::OpenSchool{*school})));
    ASSERT_TRUE(ws->read_until_id(v4::id::kMapSnapshot));

    // Paused, so the clock itself has nothing to write; then wait for the pause to be on disk.
    ASSERT_TRUE(ws->send_binary(v4::encode(v4::SetRunning{0})));
    std::optional<v4::Clock> clock;
    for (int i = 0; i < 100 && (!clock || clock->running != 0); ++i) clock = next_clock(*ws);
    ASSERT_TRUE(clock && clock->running == 0) << "the school did not pause";
    ASSERT_TRUE(store_settles(db_path)) << "the database kept changing with the school paused";

    // Another process takes the write lock: any write the server starts now waits, then fails.
    SQLite::Database other(db_path.string(), SQLite::OPEN_READWRITE);
    other.exec("BEGIN IMMEDIATE");
    const double errors_before = store_errors(server.port());

    for (int i = 0; i < kNoOpControls; ++i) {
        ASSERT_TRUE(ws->send_binary(v4::encode(v4::SetRunning{0})));
        ASSERT_TRUE(ws->send_binary(v4::encode(v4::SetSpeed{clock->speed_index})));
        std::this_thread::sleep_for(kControlSpacing);
    }
    // Two ticks after the last control: the loop has applied every one of them, and they changed nothing.
    for (int i = 0; i < 2; ++i) {
        const auto later = next_clock(*ws);
        ASSERT_TRUE(later);
        EXPECT_EQ(later->running, 0);
        EXPECT_EQ(later->speed_index, clock->speed_index);
        EXPECT_EQ(later->game_time_ms, clock->game_time_ms) << "a paused school's clock moved";
    }
    // Longer than a woken store would take to give up on the lock.
    const auto window_end = Clock::now() + kServerBusyTimeout + kErrorSlack;
    double errors = errors_before;
    unsigned health = 200;
    while (Clock::now() < window_end && errors == errors_before && health == 200) {
        errors = store_errors(server.port());
        health = http_request(server.port(), "GET", "/health").status;
        std::this_thread::sleep_for(kMetricsPoll);
    }
    EXPECT_EQ(errors, errors_before) << "controls that change nothing started a database write";
    EXPECT_EQ(health, 200U) << "controls that change nothing turned /health unhealthy";

    // The same observation sees a real change: the test can tell.
    const std::uint8_t other_speed = clock->speed_index == 1 ? 2 : 1;
    ASSERT_TRUE(ws->send_binary(v4::encode(v4::SetSpeed{other_speed})));
    EXPECT_TRUE(eventually([&] { return store_errors(server.port()) > errors_before; }, kServerBusyTimeout + kWait, kMetricsPoll))
        << "a real speed change did not reach the locked store";
    other.exec("ROLLBACK");
}

}  // namespace
}  // namespace hschool::test::abuse
