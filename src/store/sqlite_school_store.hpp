#pragma once
// Schools in one SQLite file (the embedded default). Clock updates are committed on a connection of
// their own, so that a clock write waiting on a locked file never makes a create or delete wait
// longer than its own busy timeout.
#include <memory>
#include <mutex>

#include "store/clock_writer.hpp"
#include "store/school_store.hpp"

namespace SQLite {
class Database;
}

namespace hschool::store {

class SqliteSchoolStore final : public SchoolStore {
public:
    static Expected<std::unique_ptr<SchoolStore>, StoreError> open(const std::filesystem::path& db_path,
                                                                   ClockWriteListener on_clock_write);
    ~SqliteSchoolStore() override;
    SqliteSchoolStore(const SqliteSchoolStore&) = delete;
    SqliteSchoolStore& operator=(const SqliteSchoolStore&) = delete;

    Expected<std::vector<SchoolRecord>, StoreError> load_all() override;
    Expected<SchoolRecord, StoreError> insert(const NewSchool& school) override;
    Expected<SchoolRecord, StoreError> insert_within_limit(const NewSchool& school, std::size_t max_schools) override;
    Expected<std::optional<std::string>, StoreError> owner_hash(std::int32_t id) override;
    Expected<bool, StoreError> remove(std::int32_t id) override;
    void queue_clock(std::int32_t id, std::int64_t game_time_ms, bool running, std::uint8_t speed_index, bool control) override;
    Expected<void, StoreError> flush() override;
    std::optional<StoreError> last_clock_write_error() const override;
    bool wait_for_background_commit_for_test(std::chrono::milliseconds timeout) override;

private:
    SqliteSchoolStore(std::unique_ptr<SQLite::Database> db, std::unique_ptr<SQLite::Database> clock_db,
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
