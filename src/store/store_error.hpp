#pragma once
// Why a store operation failed; the message is for logs, the kind is for callers to switch on.
#include <cstdint>
#include <string>

namespace hschool::store {

enum class StoreErrorKind : std::uint8_t {
    OpenFailed,        // path missing, not writable, a directory, or not a database
    SchemaTooNew,      // written by a newer server; refusing rather than guessing
    Io,                // a statement failed (disk full, I/O error, corrupt page)
    Busy,              // another connection held the file past kBusyTimeoutMs (SQLITE_BUSY/LOCKED)
    LimitReached,      // insert with a school limit that is already met
    IdSpaceExhausted,  // AUTOINCREMENT passed the int32 ids the protocol can carry
    Unavailable,       // the database server cannot be reached (PostgreSQL): retried, 503 meanwhile
};

struct StoreError {
    StoreErrorKind kind = StoreErrorKind::Io;
    std::string message;
};

const char* describe(StoreErrorKind kind);

}  // namespace hschool::store
