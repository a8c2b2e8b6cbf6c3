#include "store_backend.hpp"

#include <atomic>
#include <cstdlib>
#include <random>

#include <unistd.h>

#include <SQLiteCpp/SQLiteCpp.h>

#include "store/pg/pg_connection.hpp"

namespace hschool::store::testing {

std::string backend_name(const ::testing::TestParamInfo<Backend>& info) {
    return info.param == Backend::Sqlite ? "Sqlite" : "Postgres";
}

void hold_clocks(SchoolStore& store) {
    if (auto* shared = store.shared()) {
        EXPECT_TRUE(shared->renew_leases().has_value());
    }
}

std::optional<std::string> test_database_url() {
    const char* url = std::getenv("HSCHOOL_TEST_DATABASE_URL");
    if (url && *url) return std::string(url);
    if (std::getenv("HSCHOOL_REQUIRE_POSTGRES")) ADD_FAILURE() << "HSCHOOL_REQUIRE_POSTGRES is set but HSCHOOL_TEST_DATABASE_URL is not";
    return std::nullopt;
}

namespace {

std::string unique_schema() {
    static std::atomic<int> counter{0};
    std::random_device device;
    return "t" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + "_" + std::to_string(device() % 1000000);
}

std::unique_ptr<pg::Connection> admin(const std::string& url) {
    auto connection = pg::Connection::connect(url);
    EXPECT_TRUE(connection.has_value()) << (connection ? "" : connection.error().message);
    return connection ? std::move(connection).value() : nullptr;
}

}  // namespace

StoreLocation::StoreLocation(Backend backend) : backend_(backend) {
    if (backend_ == Backend::Sqlite) return;
    const auto base = test_database_url();
    if (!base) {
        ready_ = false;
        return;
    }
    schema_ = unique_schema();
    auto connection = admin(*base);
    if (!connection || !connection->run("CREATE SCHEMA " + schema_)) {
        ADD_FAILURE() << "could not make schema " << schema_;
        ready_ = false;
        return;
    }
    url_ = *base + (base->find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" + schema_;
}

StoreLocation::~StoreLocation() {
    if (backend_ != Backend::Postgres || schema_.empty()) return;
    if (auto connection = admin(*test_database_url())) (void)connection->run("DROP SCHEMA " + schema_ + " CASCADE");
}

std::unique_ptr<SchoolStore> StoreLocation::open_schools() {
    auto opened = backend_ == Backend::Sqlite ? SchoolStore::open(dir_.file("schools.db")) : SchoolStore::open_postgres(url_);
    EXPECT_TRUE(opened.has_value()) << (opened ? "" : opened.error().message);
    return opened ? std::move(opened).value() : nullptr;
}

std::int64_t StoreLocation::count_rows(const std::string& table) {
    if (backend_ == Backend::Sqlite) {
        SQLite::Database raw(dir_.file("schools.db").string(), SQLite::OPEN_READONLY);
        return raw.execAndGet("SELECT COUNT(*) FROM " + table).getInt64();
    }
    auto connection = admin(url_);
    if (!connection) return -1;
    auto rows = connection->exec("SELECT count(*) FROM " + table);
    EXPECT_TRUE(rows.has_value()) << (rows ? "" : rows.error().message);
    return rows ? rows->integer(0, 0) : -1;
}

}  // namespace hschool::store::testing
