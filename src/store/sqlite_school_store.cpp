#include "store/sqlite_school_store.hpp"

#include <exception>
#include <map>
#include <string>
#include <utility>

#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

#include "store/schema.hpp"
#include "store/sqlite_support.hpp"
#include "util/wall_clock.hpp"

namespace hschool::store {
namespace {

StoreError io_error(const std::exception& e) {
    return StoreError{StoreErrorKind::Io, e.what()};
}

Expected<std::unique_ptr<SQLite::Database>, StoreError> open_connection(const std::filesystem::path& db_path) {
    try {
        return std::make_unique<SQLite::Database>(db_path.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE,
                                                  kBusyTimeoutMs);
    } catch (const std::exception& e) {
        return unexpected(StoreError{StoreErrorKind::OpenFailed, db_path.string() + ": " + e.what()});
    }
}

}  // namespace

Expected<std::unique_ptr<SchoolStore>, StoreError> SchoolStore::open(const std::filesystem::path& db_path, ClockWriteListener on_clock_write) {
    return SqliteSchoolStore::open(db_path, std::move(on_clock_write));
}

Expected<std::unique_ptr<SchoolStore>, StoreError> SqliteSchoolStore::open(const std::filesystem::path& db_path,
                                                                     ClockWriteListener on_clock_write) {
    auto db = open_connection(db_path);
    if (!db) return unexpected(std::move(db).error());
    for (auto* step : {&configure_connection, &ensure_schema}) {
        if (auto error = step(**db)) {
            error->message = db_path.string() + ": " + error->message;
            return unexpected(std::move(*error));
        }
    }
    auto clock_db = open_connection(db_path);
    if (!clock_db) return unexpected(std::move(clock_db).error());
    if (auto error = configure_connection(**clock_db)) {
        error->message = db_path.string() + ": " + error->message;
        return unexpected(std::move(*error));
    }
    return std::unique_ptr<SchoolStore>(
        new SqliteSchoolStore(std::move(db).value(), std::move(clock_db).value(), std::move(on_clock_write)));
}

SqliteSchoolStore::SqliteSchoolStore(std::unique_ptr<SQLite::Database> db, std::unique_ptr<SQLite::Database> clock_db,
                         ClockWriteListener on_clock_write)
    : db_(std::move(db)),
      clock_db_(std::move(clock_db)),
      on_clock_write_(std::move(on_clock_write)),
      clock_writer_([this](const ClockBatch& batch) { return write_clocks(batch); }, kClockCommitInterval) {}

SqliteSchoolStore::~SqliteSchoolStore() {
    clock_writer_.stop();
}

Expected<std::vector<SchoolRecord>, StoreError> SqliteSchoolStore::load_all() {
    const std::lock_guard lock(db_mutex_);
    try {
        std::vector<SchoolRecord> schools;
        std::map<std::int64_t, std::size_t> index_by_id;
        SQLite::Statement select_schools(*db_,
                                         "SELECT id, name, start_date_ms, map_json, game_time_ms, running, "
                                         "speed_index, created_at_ms, owner_hash FROM schools ORDER BY id");
        while (select_schools.executeStep()) {
            SchoolRecord record;
            record.id = select_schools.getColumn(0).getInt();
            record.name = select_schools.getColumn(1).getString();
            record.start_date_ms = select_schools.getColumn(2).getInt64();
            record.map_json = select_schools.getColumn(3).getString();
            record.game_time_ms = select_schools.getColumn(4).getInt64();
            record.running = select_schools.getColumn(5).getInt() != 0;
            record.speed_index = static_cast<std::uint8_t>(select_schools.getColumn(6).getInt());
            record.created_at_ms = select_schools.getColumn(7).getInt64();
            record.owner_hash = select_schools.getColumn(8).getString();
            index_by_id.emplace(record.id, schools.size());
            schools.push_back(std::move(record));
        }
        SQLite::Statement select_mods(*db_, "SELECT school_id, mod_id FROM school_mods ORDER BY school_id, position");
        while (select_mods.executeStep()) {
            const auto found = index_by_id.find(select_mods.getColumn(0).getInt64());
            if (found != index_by_id.end()) schools[found->second].mod_ids.push_back(select_mods.getColumn(1).getString());
        }
        return schools;
    } catch (const std::exception& e) {
        return unexpected(io_error(e));
    }
}

Expected<SchoolRecord, StoreError> SqliteSchoolStore::insert(const NewSchool& school) {
    const std::lock_guard lock(db_mutex_);
    return insert_locked(school, std::nullopt);
}

Expected<SchoolRecord, StoreError> SqliteSchoolStore::insert_within_limit(const NewSchool& school, std::size_t max_schools) {
    const std::lock_guard lock(db_mutex_);
    return insert_locked(school, max_schools);
}

Expected<SchoolRecord, StoreError> SqliteSchoolStore::insert_locked(const NewSchool& school,
                                                              std::optional<std::size_t> max_schools) {
    try {
        const FullSyncScope full_sync(*db_);
        // IMMEDIATE takes the write lock first: a read transaction upgraded later would fail at once
        // on a locked file instead of waiting kBusyTimeoutMs, and the count must not change under us.
        SQLite::Transaction transaction(*db_, SQLite::TransactionBehavior::IMMEDIATE);
        if (max_schools) {
            const auto count = db_->execAndGet("SELECT COUNT(*) FROM schools").getInt64();
            if (count >= 0 && static_cast<std::size_t>(count) >= *max_schools) {
                return unexpected(StoreError{StoreErrorKind::LimitReached,
                                             "already " + std::to_string(count) + " schools"});
            }
        }

        SchoolRecord record;
        static_cast<NewSchool&>(record) = school;
        record.created_at_ms = util::unix_ms();

        SQLite::Statement insert_school(*db_,
                                        "INSERT INTO schools (name, start_date_ms, map_json, game_time_ms, running, "
                                        "speed_index, created_at_ms, owner_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
        insert_school.bind(1, record.name);
        insert_school.bind(2, record.start_date_ms);
        insert_school.bind(3, record.map_json);
        insert_school.bind(4, record.game_time_ms);
        insert_school.bind(5, record.running ? 1 : 0);
        insert_school.bind(6, static_cast<int>(record.speed_index));
        insert_school.bind(7, record.created_at_ms);
        insert_school.bind(8, record.owner_hash);
        insert_school.exec();

        const std::int64_t id = db_->getLastInsertRowid();
        if (id > kMaxSchoolId) {
            return unexpected(StoreError{StoreErrorKind::IdSpaceExhausted,
                                         "school id " + std::to_string(id) + " does not fit in int32"});
        }
        record.id = static_cast<std::int32_t>(id);

        SQLite::Statement insert_mod(*db_, "INSERT INTO school_mods (school_id, position, mod_id) VALUES (?, ?, ?)");
        for (std::size_t position = 0; position < record.mod_ids.size(); ++position) {
            insert_mod.bind(1, id);
            insert_mod.bind(2, static_cast<std::int64_t>(position));
            insert_mod.bind(3, record.mod_ids[position]);
            insert_mod.exec();
            insert_mod.reset();
        }
        transaction.commit();
        return record;
    } catch (const SQLite::Exception& e) {
        return unexpected(statement_error(e));
    } catch (const std::exception& e) {
        return unexpected(io_error(e));
    }
}

Expected<std::optional<std::string>, StoreError> SqliteSchoolStore::owner_hash(std::int32_t id) {
    const std::lock_guard lock(db_mutex_);
    try {
        SQLite::Statement select(*db_, "SELECT owner_hash FROM schools WHERE id = ?");
        select.bind(1, id);
        if (!select.executeStep()) return std::optional<std::string>();
        return std::optional<std::string>(select.getColumn(0).getString());
    } catch (const SQLite::Exception& e) {
        return unexpected(statement_error(e));
    } catch (const std::exception& e) {
        return unexpected(io_error(e));
    }
}

Expected<bool, StoreError> SqliteSchoolStore::remove(std::int32_t id) {
    clock_writer_.forget(id);
    const std::lock_guard lock(db_mutex_);
    try {
        const FullSyncScope full_sync(*db_);
        SQLite::Statement delete_school(*db_, "DELETE FROM schools WHERE id = ?");  // school_mods cascade
        delete_school.bind(1, id);
        return delete_school.exec() > 0;
    } catch (const SQLite::Exception& e) {
        return unexpected(statement_error(e));
    } catch (const std::exception& e) {
        return unexpected(io_error(e));
    }
}

void SqliteSchoolStore::queue_clock(std::int32_t id, std::int64_t game_time_ms, bool running, std::uint8_t speed_index, bool control) {
    clock_writer_.queue(id, ClockState{game_time_ms, running, speed_index, control});
}

Expected<void, StoreError> SqliteSchoolStore::flush() {
    if (auto error = clock_writer_.flush()) return unexpected(std::move(*error));
    return {};
}

std::optional<StoreError> SqliteSchoolStore::last_clock_write_error() const {
    return clock_writer_.last_error();
}

bool SqliteSchoolStore::wait_for_background_commit_for_test(std::chrono::milliseconds timeout) {
    return clock_writer_.wait_for_background_commit(timeout);
}

std::optional<StoreError> SqliteSchoolStore::write_clocks(const ClockBatch& batch) {
    auto outcome = write_clocks_on(*clock_db_, batch);
    if (on_clock_write_) on_clock_write_(outcome);
    return outcome;
}

std::optional<StoreError> SqliteSchoolStore::write_clocks_on(SQLite::Database& db, const ClockBatch& batch) {
    try {
        SQLite::Transaction transaction(db);
        // UPDATE only: a clock never inserts, so a school deleted meanwhile stays deleted.
        SQLite::Statement update(db, "UPDATE schools SET game_time_ms = ?, running = ?, speed_index = ? WHERE id = ?");
        for (const auto& [id, state] : batch) {
            update.bind(1, state.game_time_ms);
            update.bind(2, state.running ? 1 : 0);
            update.bind(3, static_cast<int>(state.speed_index));
            update.bind(4, id);
            update.exec();
            update.reset();
        }
        transaction.commit();
        return std::nullopt;
    } catch (const SQLite::Exception& e) {
        return statement_error(e);
    } catch (const std::exception& e) {
        return io_error(e);
    }
}

}  // namespace hschool::store
