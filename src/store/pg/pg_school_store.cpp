#include "store/pg/pg_school_store.hpp"

#include <poll.h>

#include <chrono>
#include <map>
#include <random>
#include <thread>
#include <utility>

#include "store/pg/pg_schema.hpp"
#include "util/wall_clock.hpp"

namespace hschool::store {

Expected<std::unique_ptr<SchoolStore>, StoreError> SchoolStore::open_postgres(const std::string& url,
                                                                             ClockWriteListener on_clock_write) {
    return pg::PgSchoolStore::open(url, std::move(on_clock_write));
}

}  // namespace hschool::store

namespace hschool::store::pg {
namespace {

// Serialises inserts that check the school limit, across every server on the database.
constexpr const char* kSchoolLimitLock = "SELECT pg_advisory_xact_lock(3417002)";

// The database's own clock, so that servers whose clocks disagree still agree on a lease.
constexpr const char* kDbNowMs = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

constexpr const char* kSchoolColumns =
    "id, name, start_date_ms, map_json, game_time_ms, running, speed_index, created_at_ms, owner_hash";

// One row of kSchoolColumns, without its mods.
SchoolRecord school_of(const Rows& rows, int r) {
    SchoolRecord record;
    record.id = static_cast<std::int32_t>(rows.integer(r, 0));
    record.name = rows.text(r, 1);
    record.start_date_ms = rows.integer(r, 2);
    record.map_json = rows.text(r, 3);
    record.game_time_ms = rows.integer(r, 4);
    record.running = rows.boolean(r, 5);
    record.speed_index = static_cast<std::uint8_t>(rows.integer(r, 6));
    record.created_at_ms = rows.integer(r, 7);
    record.owner_hash = rows.text(r, 8);
    return record;
}

std::string random_holder() {
    std::random_device device;
    std::string name;
    static constexpr char kHex[] = "0123456789abcdef";
    for (int i = 0; i < 16; ++i) name += kHex[device() % 16];
    return name;
}

}  // namespace

Expected<std::unique_ptr<SchoolStore>, StoreError> PgSchoolStore::open(const std::string& url, ClockWriteListener on_clock_write) {
    std::unique_ptr<PgSchoolStore> store(new PgSchoolStore(url, std::move(on_clock_write)));
    auto lease = store->pool_.borrow();
    if (!lease) return unexpected(std::move(lease).error());
    if (auto error = ensure_schema(**lease)) {
        error->message = redacted_url(url) + ": " + error->message;
        return unexpected(std::move(*error));
    }
    auto schema = (*lease)->exec("SELECT current_schema()");
    if (!schema) return unexpected(std::move(schema).error());
    store->channel_ = "hschool_schools_" + schema->text(0, 0);
    return std::unique_ptr<SchoolStore>(std::move(store));
}

PgSchoolStore::PgSchoolStore(std::string url, ClockWriteListener on_clock_write)
    : pool_(std::move(url)),
      holder_(random_holder()),
      on_clock_write_(std::move(on_clock_write)),
      clock_writer_([this](const ClockBatch& batch) { return write_clocks(batch); }, kClockCommitInterval) {}

PgSchoolStore::~PgSchoolStore() {
    clock_writer_.stop();
    release_leases();
}

Expected<std::vector<SchoolRecord>, StoreError> PgSchoolStore::load_all() {
    auto lease = pool_.borrow();
    if (!lease) return unexpected(std::move(lease).error());
    auto& db = **lease;
    return in_transaction(db, [&]() -> Expected<std::vector<SchoolRecord>, StoreError> {
        auto rows = db.exec(std::string("SELECT ") + kSchoolColumns + " FROM schools ORDER BY id");
        if (!rows) return unexpected(std::move(rows).error());
        std::vector<SchoolRecord> schools;
        std::map<std::int64_t, std::size_t> index_by_id;
        for (int r = 0; r < rows->size(); ++r) {
            index_by_id.emplace(rows->integer(r, 0), schools.size());
            schools.push_back(school_of(*rows, r));
        }
        auto mods = db.exec("SELECT school_id, mod_id FROM school_mods ORDER BY school_id, position");
        if (!mods) return unexpected(std::move(mods).error());
        for (int r = 0; r < mods->size(); ++r) {
            const auto found = index_by_id.find(mods->integer(r, 0));
            if (found != index_by_id.end()) schools[found->second].mod_ids.push_back(mods->text(r, 1));
        }
        return schools;
    });
}

Expected<SchoolRecord, StoreError> PgSchoolStore::insert(const NewSchool& school) {
    auto saved = insert_checked(school, std::nullopt);
    if (saved) announce();  // the other servers list it now, not at their next read
    return saved;
}

Expected<SchoolRecord, StoreError> PgSchoolStore::insert_within_limit(const NewSchool& school, std::size_t max_schools) {
    auto saved = insert_checked(school, max_schools);
    if (saved) announce();
    return saved;
}

Expected<SchoolRecord, StoreError> PgSchoolStore::insert_checked(const NewSchool& school, std::optional<std::size_t> max_schools) {
    auto lease = pool_.borrow();
    if (!lease) return unexpected(std::move(lease).error());
    auto& db = **lease;
    return in_transaction(db, [&]() -> Expected<SchoolRecord, StoreError> {
        if (max_schools) {
            if (auto locked = db.exec(kSchoolLimitLock); !locked) return unexpected(std::move(locked).error());
            auto count = db.exec("SELECT count(*) FROM schools");
            if (!count) return unexpected(std::move(count).error());
            const auto n = count->integer(0, 0);
            if (n >= 0 && static_cast<std::size_t>(n) >= *max_schools)
                return unexpected(StoreError{StoreErrorKind::LimitReached, "already " + std::to_string(n) + " schools"});
        }
        SchoolRecord record;
        static_cast<NewSchool&>(record) = school;
        record.created_at_ms = util::unix_ms();
        auto inserted = db.exec("INSERT INTO schools (name, start_date_ms, map_json, game_time_ms, running, speed_index, "
                                "created_at_ms, owner_hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
                                {Param::text(record.name), Param::integer(record.start_date_ms), Param::text(record.map_json),
                                 Param::integer(record.game_time_ms), Param::boolean(record.running),
                                 Param::integer(record.speed_index), Param::integer(record.created_at_ms),
                                 Param::text(record.owner_hash)});
        if (!inserted) return unexpected(std::move(inserted).error());
        const std::int64_t id = inserted->integer(0, 0);
        if (id <= 0 || id > kMaxSchoolId)
            return unexpected(StoreError{StoreErrorKind::IdSpaceExhausted, "school id " + std::to_string(id) + " does not fit in int32"});
        record.id = static_cast<std::int32_t>(id);
        for (std::size_t position = 0; position < record.mod_ids.size(); ++position) {
            auto mod = db.exec("INSERT INTO school_mods (school_id, position, mod_id) VALUES ($1, $2, $3)",
                               {Param::integer(id), Param::integer(static_cast<std::int64_t>(position)),
                                Param::text(record.mod_ids[position])});
            if (!mod) return unexpected(std::move(mod).error());
        }
        return record;
    });
}

Expected<std::optional<std::string>, StoreError> PgSchoolStore::owner_hash(std::int32_t id) {
    auto lease = pool_.borrow();
    if (!lease) return unexpected(std::move(lease).error());
    auto rows = (*lease)->exec("SELECT owner_hash FROM schools WHERE id = $1", {Param::integer(id)});
    if (!rows) return unexpected(std::move(rows).error());
    if (rows->size() == 0) return std::optional<std::string>();
    return std::optional<std::string>(rows->text(0, 0));
}

Expected<bool, StoreError> PgSchoolStore::remove(std::int32_t id) {
    clock_writer_.forget(id);
    auto lease = pool_.borrow();
    if (!lease) return unexpected(std::move(lease).error());
    auto removed = (*lease)->exec("DELETE FROM schools WHERE id = $1", {Param::integer(id)});  // school_mods cascade
    if (!removed) return unexpected(std::move(removed).error());
    const bool existed = removed->affected() > 0;
    if (existed) announce();
    return existed;
}

void PgSchoolStore::queue_clock(std::int32_t id, std::int64_t game_time_ms, bool running, std::uint8_t speed_index, bool control) {
    clock_writer_.queue(id, ClockState{game_time_ms, running, speed_index, control});
}

Expected<void, StoreError> PgSchoolStore::flush() {
    if (auto error = clock_writer_.flush()) return unexpected(std::move(*error));
    return {};
}

std::optional<StoreError> PgSchoolStore::last_clock_write_error() const { return clock_writer_.last_error(); }

bool PgSchoolStore::wait_for_background_commit_for_test(std::chrono::milliseconds timeout) {
    return clock_writer_.wait_for_background_commit(timeout);
}

std::optional<StoreError> PgSchoolStore::write_clocks(const ClockBatch& batch) {
    auto outcome = [&]() -> std::optional<StoreError> {
        auto lease = pool_.borrow();
        if (!lease) return std::move(lease).error();
        auto& db = **lease;
        bool controlled = false;
        auto written = in_transaction(db, [&]() -> Expected<void, StoreError> {
            // UPDATE only: a clock never inserts, so a school deleted meanwhile stays deleted. Time
            // passing is written by the lease's holder alone; a pause or speed change by any server.
            for (const auto& [id, state] : batch) {
                auto updated = state.control
                                   ? db.exec("UPDATE schools SET game_time_ms = $1, running = $2, speed_index = $3, "
                                             "control_seq = control_seq + 1 WHERE id = $4",
                                             {Param::integer(state.game_time_ms), Param::boolean(state.running),
                                              Param::integer(state.speed_index), Param::integer(id)})
                                   : db.exec("UPDATE schools SET game_time_ms = $1 WHERE id = $2 AND clock_holder = $3",
                                             {Param::integer(state.game_time_ms), Param::integer(id), Param::text(holder_)});
                if (!updated) return unexpected(std::move(updated).error());
                controlled = controlled || state.control;
            }
            return {};
        });
        if (!written) return written.error();
        if (controlled) announce();
        return std::nullopt;
    }();
    if (on_clock_write_) on_clock_write_(outcome);
    return outcome;
}

Expected<std::vector<std::int32_t>, StoreError> PgSchoolStore::renew_leases() {
    auto lease = pool_.borrow();
    if (!lease) return unexpected(std::move(lease).error());
    auto rows = (*lease)->exec(std::string("UPDATE schools SET clock_holder = $1, clock_lease_until_ms = ") + kDbNowMs +
                                   " + $2 WHERE clock_holder = $1 OR clock_lease_until_ms < " + kDbNowMs + " RETURNING id",
                               {Param::text(holder_), Param::integer(kClockLease.count())});
    if (!rows) return unexpected(std::move(rows).error());
    std::vector<std::int32_t> held;
    for (int r = 0; r < rows->size(); ++r) held.push_back(static_cast<std::int32_t>(rows->integer(r, 0)));
    return held;
}

void PgSchoolStore::release_leases() {
    auto lease = pool_.borrow();
    if (!lease) return;  // the leases lapse by themselves
    (void)(*lease)->exec("UPDATE schools SET clock_lease_until_ms = 0 WHERE clock_holder = $1", {Param::text(holder_)});
}

Expected<std::vector<SharedClockRow>, StoreError> PgSchoolStore::read_clocks() {
    auto lease = pool_.borrow();
    if (!lease) return unexpected(std::move(lease).error());
    auto rows = (*lease)->exec("SELECT id, game_time_ms, running, speed_index, control_seq, clock_holder = $1 FROM schools ORDER BY id",
                               {Param::text(holder_)});
    if (!rows) return unexpected(std::move(rows).error());
    std::vector<SharedClockRow> clocks;
    clocks.reserve(static_cast<std::size_t>(rows->size()));
    for (int r = 0; r < rows->size(); ++r) {
        SharedClockRow row;
        row.id = static_cast<std::int32_t>(rows->integer(r, 0));
        row.state = ClockState{rows->integer(r, 1), rows->boolean(r, 2), static_cast<std::uint8_t>(rows->integer(r, 3)), false};
        row.control_seq = rows->integer(r, 4);
        row.held_here = rows->boolean(r, 5);
        clocks.push_back(row);
    }
    return clocks;
}

Expected<std::optional<SchoolRecord>, StoreError> PgSchoolStore::load_one(std::int32_t id) {
    auto lease = pool_.borrow();
    if (!lease) return unexpected(std::move(lease).error());
    auto& db = **lease;
    return in_transaction(db, [&]() -> Expected<std::optional<SchoolRecord>, StoreError> {
        auto rows = db.exec(std::string("SELECT ") + kSchoolColumns + " FROM schools WHERE id = $1", {Param::integer(id)});
        if (!rows) return unexpected(std::move(rows).error());
        if (rows->size() == 0) return std::optional<SchoolRecord>();
        SchoolRecord record = school_of(*rows, 0);
        auto mods = db.exec("SELECT mod_id FROM school_mods WHERE school_id = $1 ORDER BY position", {Param::integer(id)});
        if (!mods) return unexpected(std::move(mods).error());
        for (int r = 0; r < mods->size(); ++r) record.mod_ids.push_back(mods->text(r, 0));
        return std::optional<SchoolRecord>(std::move(record));
    });
}

void PgSchoolStore::announce() {
    auto lease = pool_.borrow();
    if (!lease) return;  // the others still read every kFollowInterval
    (void)(*lease)->exec("SELECT pg_notify($1, '')", {Param::text(channel_)});
}

bool PgSchoolStore::wait_for_announcement(std::chrono::milliseconds timeout) {
    if (!listener_ || !listener_->healthy()) {
        listener_.reset();
        auto made = Connection::connect(pool_.url());
        // The channel is "hschool_schools_<schema>": quoted, it is one identifier whatever the schema.
        if (!made || !(*made)->run("LISTEN \"" + channel_ + "\"")) {
            std::this_thread::sleep_for(timeout);
            return false;
        }
        listener_ = std::move(made).value();
    }
    if (!listener_->consume_input()) return false;
    if (!listener_->notifications().empty()) return true;
    pollfd waiting{listener_->socket(), POLLIN, 0};
    if (::poll(&waiting, 1, static_cast<int>(timeout.count())) <= 0) return false;
    if (!listener_->consume_input()) return false;
    return !listener_->notifications().empty();
}

}  // namespace hschool::store::pg
