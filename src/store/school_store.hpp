#pragma once
// Where schools are kept: one interface, two backends — SQLite (sqlite_school_store.*, the embedded
// default) and PostgreSQL (pg/pg_school_store.*, issue 34). Creating and deleting are synchronous
// and durable (the server calls them from its store thread); clock updates are coalesced and
// committed in the background at most every kClockCommitInterval.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "store/expected.hpp"
#include "store/school_record.hpp"
#include "store/shared_schools.hpp"
#include "store/store_error.hpp"

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

    // SQLite: opens or creates the file and its schema. The parent directory must exist.
    static Expected<std::unique_ptr<SchoolStore>, StoreError> open(const std::filesystem::path& db_path,
                                                                   ClockWriteListener on_clock_write = {});
    // PostgreSQL (issue 34): connects, creates or migrates the schema. The error names the URL
    // without its password.
    static Expected<std::unique_ptr<SchoolStore>, StoreError> open_postgres(const std::string& url,
                                                                            ClockWriteListener on_clock_write = {});

    virtual ~SchoolStore() = default;  // an implementation flushes queued clocks and joins its writer

    // Every school in id order, with its last committed clock. Called at start-up.
    virtual Expected<std::vector<SchoolRecord>, StoreError> load_all() = 0;

    // Synchronous and durable before it returns; assigns a fresh id and created_at_ms.
    virtual Expected<SchoolRecord, StoreError> insert(const NewSchool& school) = 0;

    // As insert, but fails with LimitReached when max_schools already exist, checked atomically.
    virtual Expected<SchoolRecord, StoreError> insert_within_limit(const NewSchool& school, std::size_t max_schools) = 0;

    // The school's owner hash ("" when only the operator owns it), or nullopt for an unknown id.
    virtual Expected<std::optional<std::string>, StoreError> owner_hash(std::int32_t id) = 0;

    // Synchronous and durable; true when the school existed.
    virtual Expected<bool, StoreError> remove(std::int32_t id) = 0;

    // Never touches the database: replaces the school's queued state for the background writer.
    // Updates only an existing row, so a clock queued for a deleted school does not bring it back.
    // control: a pause or speed change, as opposed to time passing.
    virtual void queue_clock(std::int32_t id, std::int64_t game_time_ms, bool running, std::uint8_t speed_index,
                             bool control = false) = 0;

    // Writes everything queued so far and waits (clean shutdown).
    virtual Expected<void, StoreError> flush() = 0;

    // Failure of the most recent background clock write, if it failed (it is retried).
    virtual std::optional<StoreError> last_clock_write_error() const = 0;

    // Waits for the periodic writer to commit what is queued, without hurrying it. For tests.
    virtual bool wait_for_background_commit_for_test(std::chrono::milliseconds timeout) = 0;

    // What this store shares with other servers on its database; null when it is this server's alone.
    virtual SharedSchools* shared() { return nullptr; }
};

}  // namespace hschool::store
