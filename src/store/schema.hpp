#pragma once
// Connection settings and the table layout, versioned with PRAGMA user_version.
#include <optional>

#include "store/store_error.hpp"

namespace SQLite {
class Database;
}

namespace hschool::store {

// Bump when the layout changes, and add a migration from the previous version.
inline constexpr int kSchemaVersion = 2;  // 2: schools.owner_hash

// Foreign keys, WAL journal and synchronous=NORMAL; fails if WAL cannot be enabled.
std::optional<StoreError> configure_connection(SQLite::Database& db);

// Creates the tables on a fresh file; refuses a file written by a newer schema.
std::optional<StoreError> ensure_schema(SQLite::Database& db);

}  // namespace hschool::store
