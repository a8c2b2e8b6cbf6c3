// Another process holding the database file: every write waits its own busy timeout, then fails
// as Busy (not a generic I/O error), and the clock writer reports each outcome to its listener.
// Takes two busy timeouts (about 10 s).
#include <chrono>
#include <future>
#include <mutex>
#include <optional>
#include <vector>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include "store/school_store.hpp"
#include "store_test_support.hpp"
#include "temp_dir.hpp"

namespace hschool::store {
namespace {

using testing::sample_school;
using testing::TempDir;

constexpr auto kBusyTimeout = std::chrono::milliseconds(kBusyTimeoutMs);
constexpr auto kSlack = std::chrono::milliseconds(200);  // the busy handler sleeps in steps

// Records what the clock writer tells its listener.
struct Outcomes {
    std::mutex mutex;
    std::vector<std::optional<StoreError>> seen;
    SchoolStore::ClockWriteListener listener() {
        return [this](const std::optional<StoreError>& outcome) {
            const std::lock_guard lock(mutex);
            seen.push_back(outcome);
        };
    }
    std::vector<std::optional<StoreError>> taken() {
        const std::lock_guard lock(mutex);
        return seen;
    }
};

TEST(StoreBusy, LockedFileFailsEveryWriteAsBusyAfterItsOwnTimeoutAndRecovers) {
    TempDir dir;
    Outcomes outcomes;
    auto opened = SchoolStore::open(dir.file("schools.db"), outcomes.listener());
    ASSERT_TRUE(opened) << opened.error().message;
    auto& store = **opened;
    const auto existing = store.insert(sample_school("existing"));
    const auto doomed = store.insert(sample_school("doomed"));  // not `existing`: a delete forgets queued clocks
    ASSERT_TRUE(existing && doomed);

    SQLite::Database other(dir.file("schools.db").string(), SQLite::OPEN_READWRITE);
    other.exec("BEGIN EXCLUSIVE");  // in WAL mode: the write lock, as another process would hold it

    // The clock write and the create wait at once: the clock writer has its own connection, so a
    // clock batch stuck on the lock cannot add its timeout to a create's.
    const auto started = std::chrono::steady_clock::now();
    store.queue_clock(existing->id, 42, false, 2);
    auto clock = std::async(std::launch::async, [&] { return store.flush(); });
    auto created = std::async(std::launch::async, [&] { return store.insert_within_limit(sample_school("new"), 6); });
    const auto create_result = created.get();
    const auto clock_result = clock.get();
    const auto took = std::chrono::steady_clock::now() - started;
    ASSERT_FALSE(create_result.has_value());
    EXPECT_EQ(create_result.error().kind, StoreErrorKind::Busy) << create_result.error().message;
    ASSERT_FALSE(clock_result.has_value());
    EXPECT_EQ(clock_result.error().kind, StoreErrorKind::Busy) << clock_result.error().message;
    EXPECT_GE(took, kBusyTimeout - kSlack);  // they waited for the lock, not failed at once
    EXPECT_LT(took, 2 * kBusyTimeout - kSlack);  // side by side, not one after the other

    const auto remove_started = std::chrono::steady_clock::now();
    const auto remove_result = store.remove(doomed->id);
    ASSERT_FALSE(remove_result.has_value());
    EXPECT_EQ(remove_result.error().kind, StoreErrorKind::Busy) << remove_result.error().message;
    EXPECT_GE(std::chrono::steady_clock::now() - remove_started, kBusyTimeout - kSlack);
    ASSERT_FALSE(outcomes.taken().empty());
    ASSERT_TRUE(outcomes.taken().back().has_value());
    EXPECT_EQ(outcomes.taken().back()->kind, StoreErrorKind::Busy);

    other.exec("ROLLBACK");
    // The failed clock batch is retried and now lands; the listener hears the success.
    ASSERT_TRUE(store.flush().has_value());
    EXPECT_FALSE(outcomes.taken().back().has_value());
    const auto loaded = store.load_all();
    ASSERT_TRUE(loaded);
    ASSERT_EQ(loaded->size(), 2u);  // neither the create nor the delete happened
    EXPECT_EQ(loaded->front().game_time_ms, 42);
    EXPECT_TRUE(store.insert(sample_school("after")).has_value());
}

}  // namespace
}  // namespace hschool::store
