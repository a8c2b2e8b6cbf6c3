#include <fstream>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include "store/school_store.hpp"
#include "temp_dir.hpp"

namespace hschool::store {
namespace {

using testing::TempDir;

void write_file(const std::filesystem::path& path, const std::string& contents) {
    std::ofstream out(path, std::ios::binary);
    out << contents;
}

void expect_open_fails(const std::filesystem::path& path, StoreErrorKind kind) {
    const auto opened = SchoolStore::open(path);
    ASSERT_FALSE(opened.has_value()) << path;
    EXPECT_EQ(opened.error().kind, kind) << opened.error().message;
    EXPECT_FALSE(opened.error().message.empty());
}

TEST(SchoolStoreOpen, CreatesAMissingFile) {
    TempDir dir;
    const auto opened = SchoolStore::open(dir.file("new.db"));
    ASSERT_TRUE(opened.has_value()) << opened.error().message;
    EXPECT_TRUE(std::filesystem::is_regular_file(dir.file("new.db")));
}

TEST(SchoolStoreOpen, ADirectoryIsAnError) {
    TempDir dir;
    expect_open_fails(dir.path(), StoreErrorKind::OpenFailed);
}

TEST(SchoolStoreOpen, AFileOfGarbageIsAnError) {
    TempDir dir;
    std::string garbage;
    for (int i = 0; i < 8192; ++i) garbage.push_back(static_cast<char>((i * 131 + 7) % 256));
    write_file(dir.file("garbage.db"), garbage);
    expect_open_fails(dir.file("garbage.db"), StoreErrorKind::OpenFailed);
}

TEST(SchoolStoreOpen, APathBelowARegularFileIsAnError) {
    TempDir dir;
    write_file(dir.file("file.txt"), "not a directory");
    expect_open_fails(dir.file("file.txt") / "db.sqlite", StoreErrorKind::OpenFailed);
}

TEST(SchoolStoreOpen, AMissingParentDirectoryIsAnError) {
    TempDir dir;
    expect_open_fails(dir.file("missing") / "db.sqlite", StoreErrorKind::OpenFailed);
}

TEST(SchoolStoreOpen, ANewerSchemaIsRefused) {
    TempDir dir;
    {
        SQLite::Database raw(dir.file("newer.db").string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        raw.exec("PRAGMA user_version = 99");
    }
    expect_open_fails(dir.file("newer.db"), StoreErrorKind::SchemaTooNew);
}

TEST(SchoolStoreOpen, AForeignDatabaseWithASchoolsTableIsRefused) {
    TempDir dir;
    {
        SQLite::Database raw(dir.file("foreign.db").string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        raw.exec("CREATE TABLE schools (something_else TEXT)");
    }
    expect_open_fails(dir.file("foreign.db"), StoreErrorKind::OpenFailed);
}

TEST(SchoolStoreOpen, ReopeningAnExistingStoreKeepsItsSchema) {
    TempDir dir;
    ASSERT_TRUE(SchoolStore::open(dir.file("schools.db")).has_value());
    const auto reopened = SchoolStore::open(dir.file("schools.db"));
    ASSERT_TRUE(reopened.has_value()) << reopened.error().message;
    const auto schools = (*reopened)->load_all();
    ASSERT_TRUE(schools.has_value());
    EXPECT_TRUE(schools->empty());
}

TEST(SchoolStoreOpen, ErrorKindsHaveNames) {
    EXPECT_STREQ(describe(StoreErrorKind::OpenFailed), "open-failed");
    EXPECT_STREQ(describe(StoreErrorKind::SchemaTooNew), "schema-too-new");
    EXPECT_STREQ(describe(StoreErrorKind::LimitReached), "limit-reached");
}

}  // namespace
}  // namespace hschool::store
