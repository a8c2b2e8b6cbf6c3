#pragma once
// The PostgreSQL layout (issue 34), created and migrated by the server, versioned in one row of
// hschool_schema as the SQLite file is with PRAGMA user_version. Servers starting at once take an
// advisory lock, so exactly one of them creates or migrates.
#include <optional>

#include "store/pg/pg_connection.hpp"

namespace hschool::store::pg {

// Bump when the layout changes, and add a migration from the previous version.
inline constexpr int kPgSchemaVersion = 1;

// Creates the tables on an empty database, migrates an older layout, refuses a newer one.
std::optional<StoreError> ensure_schema(Connection& connection);

}  // namespace hschool::store::pg
