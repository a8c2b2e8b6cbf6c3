// A SIGKILL skips the destructor and flush(): only what the background writer committed survives.
#include <csignal>
#include <cstdint>

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "store/school_store.hpp"
#include "store_test_support.hpp"
#include "temp_dir.hpp"

namespace hschool::store {
namespace {

using testing::open_store;
using testing::sample_school;
using testing::TempDir;

constexpr std::int64_t kGameMsPerTick = 15'000;  // 50 ms of real time at ×1
constexpr int kCommittedTicks = 20;              // one real second of clock updates
constexpr int kUncommittedTicks = 5;             // queued after the last commit we waited for
constexpr std::chrono::milliseconds kCommitWaitLimit = std::chrono::seconds{30};

enum ChildFailure : int { kOpenFailed = 10, kInsertFailed = 11, kCommitNeverHappened = 12 };

// Runs in the forked child and never returns: it dies by SIGKILL with clocks still queued.
[[noreturn]] void insert_tick_and_get_killed(const std::filesystem::path& db_path, std::int64_t start_ms) {
    auto opened = SchoolStore::open(db_path);
    if (!opened) ::_exit(kOpenFailed);
    SchoolStore& store = **opened;
    const auto school = store.insert(sample_school());
    if (!school) ::_exit(kInsertFailed);

    for (int tick = 1; tick <= kCommittedTicks; ++tick) store.queue_clock(school->id, start_ms + tick * kGameMsPerTick, true, 2);
    // The periodic writer, not flush(), must have committed these.
    if (!store.wait_for_background_commit_for_test(kCommitWaitLimit)) ::_exit(kCommitNeverHappened);
    for (int tick = kCommittedTicks + 1; tick <= kCommittedTicks + kUncommittedTicks; ++tick) {
        store.queue_clock(school->id, start_ms + tick * kGameMsPerTick, true, 2);
    }
    ::kill(::getpid(), SIGKILL);
    ::_exit(0);  // unreachable: SIGKILL cannot be caught
}

TEST(SchoolStoreCrash, SigkillKeepsTheSchoolAndTheLastCommittedClock) {
    TempDir dir;
    const auto db_path = dir.file("schools.db");
    const std::int64_t start_ms = sample_school().game_time_ms;

    const pid_t child = ::fork();
    ASSERT_NE(child, -1);
    if (child == 0) insert_tick_and_get_killed(db_path, start_ms);

    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status)) << "child exited with " << WEXITSTATUS(status);
    ASSERT_EQ(WTERMSIG(status), SIGKILL);

    auto store = open_store(db_path);
    ASSERT_TRUE(store);
    const auto schools = store->load_all();
    ASSERT_TRUE(schools.has_value());
    ASSERT_EQ(schools->size(), 1u);
    const SchoolRecord& school = (*schools)[0];
    EXPECT_EQ(school.name, sample_school().name);
    EXPECT_EQ(school.mod_ids, sample_school().mod_ids);
    // At least everything up to the committed tick; at most the last queued one.
    EXPECT_GE(school.game_time_ms, start_ms + kCommittedTicks * kGameMsPerTick);
    EXPECT_LE(school.game_time_ms, start_ms + (kCommittedTicks + kUncommittedTicks) * kGameMsPerTick);
    EXPECT_EQ(school.speed_index, 2);
    EXPECT_TRUE(school.running);
}

}  // namespace
}  // namespace hschool::store
