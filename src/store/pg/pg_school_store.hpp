#pragma once
// Schools in PostgreSQL (issue 34): the same promises as the SQLite store — creates and deletes
// committed before they return, clocks coalesced and committed in the background — on a bounded
// pool of connections, so several servers can share one database.
#include <memory>
#include <optional>
#include <vector>
#include <string>

#include "store/clock_writer.hpp"
#include "store/pg/pg_pool.hpp"
#include "store/school_store.hpp"

namespace hschool::store::pg {

class PgSchoolStore final : public SchoolStore, public SharedSchools {
public:
    static Expected<std::unique_ptr<SchoolStore>, StoreError> open(const std::string& url, ClockWriteListener on_clock_write);
    ~PgSchoolStore() override;
    PgSchoolStore(const PgSchoolStore&) = delete;
    PgSchoolStore& operator=(const PgSchoolStore&) = delete;

    Expected<std::vector<SchoolRecord>, StoreError> load_all() override;
    Expected<SchoolRecord, StoreError> insert(const NewSchool& school) override;
    Expected<SchoolRecord, StoreError> insert_within_limit(const NewSchool& school, std::size_t max_schools) override;
    Expected<std::optional<std::string>, StoreError> owner_hash(std::int32_t id) override;
    Expected<bool, StoreError> remove(std::int32_t id) override;
    void queue_clock(std::int32_t id, std::int64_t game_time_ms, bool running, std::uint8_t speed_index, bool control) override;
    Expected<void, StoreError> flush() override;
    std::optional<StoreError> last_clock_write_error() const override;
    bool wait_for_background_commit_for_test(std::chrono::milliseconds timeout) override;
    SharedSchools* shared() override { return this; }

    // SharedSchools
    const std::string& holder() const override { return holder_; }
    Expected<std::vector<std::int32_t>, StoreError> renew_leases() override;
    void release_leases() override;
    Expected<std::vector<SharedClockRow>, StoreError> read_clocks() override;
    Expected<std::optional<SchoolRecord>, StoreError> load_one(std::int32_t id) override;
    void announce() override;
    bool wait_for_announcement(std::chrono::milliseconds timeout) override;

private:
    PgSchoolStore(std::string url, ClockWriteListener on_clock_write);
    Expected<SchoolRecord, StoreError> insert_checked(const NewSchool& school, std::optional<std::size_t> max_schools);
    std::optional<StoreError> write_clocks(const ClockBatch& batch);

    Pool pool_;
    const std::string holder_;
    std::string channel_;  // NOTIFY channel: per schema, so test schemas on one database stay apart
    std::unique_ptr<Connection> listener_;  // the follower thread's LISTEN connection (made on first wait)
    const ClockWriteListener on_clock_write_;
    ClockWriter clock_writer_;  // last: its thread must stop before the pool goes
};

}  // namespace hschool::store::pg
