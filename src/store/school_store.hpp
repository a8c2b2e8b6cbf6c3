#pragma once
// Schools persisted in one SQLite file. Creating and deleting are synchronous and durable (the
// server calls them from its store thread); clock updates are coalesced and committed in the
// background at most every kClockCommitInterval, on a connection of their own so that a clock write
// waiting on a locked file never makes a create or delete wait longer than its own busy timeout.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "store/clock_writer.hpp"
#include "store/expected.hpp"
#include "store/school_record.hpp"
#include "store/store_error.hpp"

namespace SQLite {
class Database;
}

namespace hschool::store {

// A SIGKILL loses at most this much queued clock time plus one write (DESIGN: at most a second).
inline constexpr std::chrono::milliseconds kClockCommitInterval{250};
// How long a statement waits for another process holding the file before failing.
inline constexpr int kBusyTimeoutMs = 5000;
// School ids travel as i32 on the wire.
inline constexpr std::int64_t kMaxSchoolId = std::numeric_limits<std::int32_t>::max();

class SchoolStore {
public:
    // Told the outcome of every background clock write, on the writer thread; nothing on success.
    using ClockWriteListener = std::function<void(const std::optional<StoreError>&)>;

    // Opens or creates the file and its schema. The parent directory must exist.
    static Expected<std::unique_ptr<SchoolStore>, StoreError> open(const std::filesystem::path& db_path,
                                                                   ClockWriteListener on_clock_write = {});

    ~SchoolStore();  // flushes queued clocks and joins the writer
    SchoolStore(const SchoolStore&) = delete;
    SchoolStore& operator=(const SchoolStore&) = delete;

    // Every school in id order, with its last committed clock. Called at start-up.
    Expected<std::vector<SchoolRecord>, StoreError> load_all();

    // Synchronous and durable (fsynced) before it returns; assigns a fresh id and created_at_ms.
    Expected<SchoolRecord, StoreError> insert(const NewSchool& school);

    // As insert, but fails with LimitReached when max_schools already exist, checked atomically.
    Expected<SchoolRecord, StoreError> insert_within_limit(const NewSchool& school, std::size_t max_schools);

    // The school's owner hash ("" when only the operator owns it), or nullopt for an unknown id.
    Expected<std::optional<std::string>, StoreError> owner_hash(std::int32_t id);

    // Synchronous and durable; true when the school existed.
    Expected<bool, StoreError> remove(std::int32_t id);

    // Never touches the disk: replaces the school's queued state for the background writer.
    // Updates only an existing row, so a clock queued for a deleted school does not bring it back.
    void queue_clock(std::int32_t id, std::int64_t game_time_ms, bool running, std::uint8_t speed_index);

    // Writes everything queued so far and waits (clean shutdown).
    Expected<void, StoreError> flush();

    // Failure of the most recent background clock write, if it failed (it is retried).
    std::optional<StoreError> last_clock_write_error() const;

    // Waits for the periodic writer to commit what is queued, without hurrying it. For tests.
    bool wait_for_background_commit_for_test(std::chrono::milliseconds timeout);

private:
    SchoolStore(std::unique_ptr<SQLite::Database> db, std::unique_ptr<SQLite::Database> clock_db,
                ClockWriteListener on_clock_write);

    Expected<SchoolRecord, StoreError> insert_locked(const NewSchool& school, std::optional<std::size_t> max_schools);
    std::optional<StoreError> write_clocks(const ClockBatch& batch);
    static std::optional<StoreError> write_clocks_on(SQLite::Database& db, const ClockBatch& batch);

    std::mutex db_mutex_;  // guards db_: start-up, the store thread and tests may use it
    std::unique_ptr<SQLite::Database> db_;
    std::unique_ptr<SQLite::Database> clock_db_;  // used by the clock writer thread only
    const ClockWriteListener on_clock_write_;
    ClockWriter clock_writer_;  // last: its thread must stop before the connections close
};

}  // namespace hschool::store
