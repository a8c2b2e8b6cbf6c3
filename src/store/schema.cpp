#include "store/schema.hpp"

#include <exception>
#include <string>

#include <SQLiteCpp/SQLiteCpp.h>

namespace hschool::store {
namespace {

// STRICT tables make SQLite reject a value of the wrong type instead of storing it as-is.
constexpr const char* kCreateTables = R"sql(
CREATE TABLE schools (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    name          TEXT    NOT NULL,
    start_date_ms INTEGER NOT NULL,
    map_json      TEXT    NOT NULL,
    game_time_ms  INTEGER NOT NULL,
    running       INTEGER NOT NULL CHECK (running IN (0, 1)),
    speed_index   INTEGER NOT NULL CHECK (speed_index BETWEEN 0 AND 255),
    created_at_ms INTEGER NOT NULL,
    owner_hash    TEXT    NOT NULL DEFAULT ''
) STRICT;
CREATE TABLE school_mods (
    school_id INTEGER NOT NULL REFERENCES schools(id) ON DELETE CASCADE,
    position  INTEGER NOT NULL,
    mod_id    TEXT    NOT NULL,
    PRIMARY KEY (school_id, position)
) STRICT, WITHOUT ROWID;
)sql";

// Version 1 had no owners: its schools belong to the operator.
constexpr const char* kMigrateFrom1 = "ALTER TABLE schools ADD COLUMN owner_hash TEXT NOT NULL DEFAULT ''";

StoreError open_failure(const std::string& what) {
    return StoreError{StoreErrorKind::OpenFailed, what};
}

}  // namespace

std::optional<StoreError> configure_connection(SQLite::Database& db) {
    try {
        db.exec("PRAGMA foreign_keys = ON");
        const std::string mode = db.execAndGet("PRAGMA journal_mode = WAL").getString();
        if (mode != "wal") return open_failure("could not enable WAL journal mode (got '" + mode + "')");
        db.exec("PRAGMA synchronous = NORMAL");
        return std::nullopt;
    } catch (const std::exception& e) {
        return open_failure(e.what());
    }
}

std::optional<StoreError> ensure_schema(SQLite::Database& db) {
    try {
        SQLite::Transaction transaction(db);
        const int version = db.execAndGet("PRAGMA user_version").getInt();
        if (version > kSchemaVersion) {
            return StoreError{StoreErrorKind::SchemaTooNew, "database schema version " + std::to_string(version) +
                                                                " is newer than this server's " +
                                                                std::to_string(kSchemaVersion)};
        }
        if (version == 0) {
            db.exec(kCreateTables);
        } else if (version == 1) {
            db.exec(kMigrateFrom1);
        }
        if (version != kSchemaVersion) db.exec("PRAGMA user_version = " + std::to_string(kSchemaVersion));
        transaction.commit();
        return std::nullopt;
    } catch (const std::exception& e) {
        return open_failure(e.what());
    }
}

}  // namespace hschool::store
