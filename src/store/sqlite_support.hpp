#pragma once
// What the store's SQLite users share (store files only): the error a failed statement becomes, and
// the scope in which commits fsync the WAL.
#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

#include "store/store_error.hpp"

namespace hschool::store {

// Busy is worth telling apart: the file is fine, another process holds it; a later try may work.
inline StoreError statement_error(const SQLite::Exception& e) {
    const int primary = e.getErrorCode() & 0xFF;
    const bool busy = primary == SQLITE_BUSY || primary == SQLITE_LOCKED;
    return StoreError{busy ? StoreErrorKind::Busy : StoreErrorKind::Io, e.what()};
}

// Commits that must survive a power cut, not only a crash (a school created or deleted, a match
// archived after its replay file), fsync the WAL; everything else keeps synchronous=NORMAL.
class FullSyncScope {
public:
    explicit FullSyncScope(SQLite::Database& db) : db_(db) { db_.exec("PRAGMA synchronous = FULL"); }
    ~FullSyncScope() {
        try {
            db_.exec("PRAGMA synchronous = NORMAL");
        } catch (...) {
            // Staying on FULL is slower but still correct.
        }
    }
    FullSyncScope(const FullSyncScope&) = delete;
    FullSyncScope& operator=(const FullSyncScope&) = delete;

private:
    SQLite::Database& db_;
};

}  // namespace hschool::store
