#pragma once
// The store tests run against both backends (issue 34): SQLite in a temporary folder, and
// PostgreSQL in a fresh schema of the database named by $HSCHOOL_TEST_DATABASE_URL (make test
// starts a throwaway cluster: scripts/pg-cluster.sh). Without that variable the PostgreSQL cases
// are skipped, unless $HSCHOOL_REQUIRE_POSTGRES is set (make test sets it): then they fail.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "store/school_store.hpp"
#include "temp_dir.hpp"

namespace hschool::store::testing {

enum class Backend { Sqlite, Postgres };

std::string backend_name(const ::testing::TestParamInfo<Backend>& info);

// Takes the clock leases of every school, as a server's follower does (shared databases only).
void hold_clocks(SchoolStore& store);

// The base URL of the test database, or nullopt (and a failure when PostgreSQL is required).
std::optional<std::string> test_database_url();

// One test's place to keep things: a folder, or a schema of its own (dropped afterwards).
class StoreLocation {
public:
    explicit StoreLocation(Backend backend);
    ~StoreLocation();
    StoreLocation(const StoreLocation&) = delete;
    StoreLocation& operator=(const StoreLocation&) = delete;

    // False when this backend cannot run here (the test should skip: see ready_or_skip).
    bool ready() const { return ready_; }
    Backend backend() const { return backend_; }
    // The store, opened anew each call (a reopen is a second call).
    std::unique_ptr<SchoolStore> open_schools();
    // For PostgreSQL: the URL whose search_path is this test's schema.
    const std::string& url() const { return url_; }
    const TempDir& dir() const { return dir_; }
    // SELECT count(*) FROM table, read past the store.
    std::int64_t count_rows(const std::string& table);

private:
    Backend backend_;
    TempDir dir_;
    std::string schema_;
    std::string url_;
    bool ready_ = true;
};

}  // namespace hschool::store::testing

// Skips a PostgreSQL case where no test database is configured.
#define HSCHOOL_STORE_LOCATION(name)                                                                  \
    ::hschool::store::testing::StoreLocation name(GetParam());                                          \
    if (!name.ready()) GTEST_SKIP() << "no $HSCHOOL_TEST_DATABASE_URL: PostgreSQL cases skipped"
