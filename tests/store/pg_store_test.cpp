// PostgreSQL's own cases (issue 34): what the shared backend promises beyond the common suite —
// a versioned schema, two servers on one database, errors that never carry the password, and a
// store that recovers by itself when the database comes back.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>

#include "store/pg/pg_connection.hpp"
#include "store/pg/pg_schema.hpp"
#include "store_backend.hpp"
#include "store_test_support.hpp"

namespace hschool::store {
namespace {

using testing::Backend;
using testing::sample_school;

class PgStore : public ::testing::Test {
protected:
    void SetUp() override {
        if (!where_.ready()) GTEST_SKIP() << "no $HSCHOOL_TEST_DATABASE_URL";
    }
    testing::StoreLocation where_{Backend::Postgres};
};

TEST(PgUrl, RedactionHidesThePasswordWhereverItIs) {
    EXPECT_EQ(pg::redacted_url("postgresql://app:s3cret@db.example:5432/hschool"), "postgresql://app:***@db.example:5432/hschool");
    EXPECT_EQ(pg::redacted_url("postgres://app:p%40ss@10.0.0.1/h?sslmode=require"), "postgres://app:***@10.0.0.1/h?sslmode=require");
    EXPECT_EQ(pg::redacted_url("postgresql://h/db?user=a&password=s3cret&x=1"), "postgresql://h/db?user=a&password=***&x=1");
    EXPECT_EQ(pg::redacted_url("postgresql://app@h/db"), "postgresql://app@h/db");
    EXPECT_EQ(pg::redacted_url("postgresql://:pw@h/db"), "postgresql://:***@h/db");
    EXPECT_EQ(pg::redacted_url("postgresql://h/db?PassWord=a&password=b#password=c"), "postgresql://h/db?PassWord=***&password=***#password=c");
    EXPECT_EQ(pg::redacted_url("postgresql://h/db?password="), "postgresql://h/db?password=***");
    EXPECT_EQ(pg::redacted_url("postgresql://h/db?xpassword=a"), "postgresql://h/db?xpassword=a");
    EXPECT_EQ(pg::redacted_url("Postgresql://app:pw@h/db"), "Postgresql://app:pw@h/db");  // not a scheme we read
    EXPECT_EQ(pg::redacted_url("postgresql://app:pw/h@x"), "postgresql://app:pw/h@x");    // no @ before the path
    EXPECT_EQ(pg::redacted_url("://:@"), "://:@");
    EXPECT_EQ(pg::redacted_url("&password"), "&password");
    EXPECT_TRUE(pg::is_postgres_url("postgresql://h/db"));
    EXPECT_TRUE(pg::is_postgres_url("postgres://h/db"));
    EXPECT_FALSE(pg::is_postgres_url("data/hschool.db"));
    EXPECT_FALSE(pg::is_postgres_url("mysql://h/db"));
}

TEST(PgUrl, AnUnreachableDatabaseIsAnErrorNamingItWithoutThePassword) {
    // A closed loopback port: refused at once.
    auto opened = SchoolStore::open_postgres("postgresql://app:topsecret@127.0.0.1:1/hschool");
    ASSERT_FALSE(opened.has_value());
    EXPECT_EQ(opened.error().kind, StoreErrorKind::Unavailable);
    EXPECT_NE(opened.error().message.find("127.0.0.1"), std::string::npos) << opened.error().message;
    EXPECT_EQ(opened.error().message.find("topsecret"), std::string::npos) << opened.error().message;
}

TEST(PgUrl, GarbageAndOversizedUrlsAreRefusedBeforeConnecting) {
    for (const std::string& url : {std::string(""), std::string("postgresql"), std::string("http://x/y"),
                                  "postgresql://h/" + std::string(5000, 'a')}) {
        auto opened = SchoolStore::open_postgres(url);
        ASSERT_FALSE(opened.has_value()) << url.substr(0, 40);
        EXPECT_EQ(opened.error().kind, StoreErrorKind::OpenFailed);
    }
}

TEST_F(PgStore, TheSchemaVersionIsStampedAndANewerOneIsRefused) {
    ASSERT_TRUE(where_.open_schools());
    auto admin = pg::Connection::connect(where_.url());
    ASSERT_TRUE(admin.has_value());
    auto version = (*admin)->exec("SELECT version FROM hschool_schema");
    ASSERT_TRUE(version.has_value());
    EXPECT_EQ(version->integer(0, 0), pg::kPgSchemaVersion);

    ASSERT_TRUE((*admin)->run("UPDATE hschool_schema SET version = version + 1"));
    auto refused = SchoolStore::open_postgres(where_.url());
    ASSERT_FALSE(refused.has_value());
    EXPECT_EQ(refused.error().kind, StoreErrorKind::SchemaTooNew);
}

TEST_F(PgStore, ValuesAreParametersNeverSql) {
    auto store = where_.open_schools();
    ASSERT_TRUE(store);
    NewSchool hostile = sample_school("x'); DROP TABLE schools; --");
    hostile.mod_ids = {"core'--", "$1", "\\x00"};
    hostile.map_json = R"({"a":"'; DELETE FROM school_mods; --"})";
    const auto saved = store->insert(hostile);
    ASSERT_TRUE(saved.has_value()) << saved.error().message;
    const auto loaded = store->load_all();
    ASSERT_TRUE(loaded.has_value());
    ASSERT_EQ(loaded->size(), 1u);
    EXPECT_EQ((*loaded)[0].name, hostile.name);
    EXPECT_EQ((*loaded)[0].mod_ids, hostile.mod_ids);
    EXPECT_EQ((*loaded)[0].map_json, hostile.map_json);
}

TEST_F(PgStore, TwoServersOnOneDatabaseSeeEachOthersSchools) {
    auto first = where_.open_schools();
    auto second = where_.open_schools();  // a second server starting against the same schema
    ASSERT_TRUE(first && second);
    const auto a = first->insert(sample_school("a"));
    const auto b = second->insert(sample_school("b"));
    ASSERT_TRUE(a && b);
    EXPECT_NE(a->id, b->id);
    const auto seen = second->load_all();
    ASSERT_TRUE(seen.has_value());
    ASSERT_EQ(seen->size(), 2u);
    ASSERT_TRUE(first->remove(b->id).value());
    EXPECT_EQ(second->load_all()->size(), 1u);
    EXPECT_FALSE(second->remove(b->id).value());  // already gone through the other server
}

TEST_F(PgStore, TheSchoolLimitHoldsAcrossServersInsertingAtOnce) {
    auto first = where_.open_schools();
    auto second = where_.open_schools();
    ASSERT_TRUE(first && second);
    constexpr std::size_t kLimit = 5;
    std::vector<std::thread> threads;
    std::atomic<int> saved{0};
    for (auto* store : {first.get(), second.get()}) {
        threads.emplace_back([store, &saved] {
            for (int i = 0; i < 8; ++i)
                if (store->insert_within_limit(sample_school("s"), kLimit)) ++saved;
        });
    }
    for (auto& thread : threads) thread.join();
    EXPECT_EQ(saved.load(), static_cast<int>(kLimit));
    EXPECT_EQ(first->load_all()->size(), kLimit);
}

// A cluster of its own: restarting the shared one would disturb the tests running beside this one.
TEST(PgRecovery, AStoreRecoversByItselfWhenTheDatabaseComesBack) {
    if (!testing::test_database_url()) GTEST_SKIP() << "no $HSCHOOL_TEST_DATABASE_URL";
    const auto dir = std::filesystem::temp_directory_path() / ("hschool-pgrecovery-" + std::to_string(::getpid()));
    const std::string script = std::string(HSCHOOL_SOURCE_DIR) + "/scripts/pg-cluster.sh";
    ASSERT_EQ(std::system((script + " start " + dir.string() + " >/dev/null").c_str()), 0);
    std::string url;
    std::ifstream(dir / "url") >> url;
    {
        auto store = SchoolStore::open_postgres(url);
        ASSERT_TRUE(store.has_value()) << store.error().message;
        ASSERT_TRUE((*store)->insert(sample_school("before")).has_value());

        ASSERT_EQ(std::system((script + " restart " + dir.string()).c_str()), 0);
        // The pool's connections died with the old server: the first statement may fail
        // (Unavailable, never a crash); the next ones reconnect.
        bool recovered = false;
        for (int attempt = 0; attempt < 5 && !recovered; ++attempt) {
            auto saved = (*store)->insert(sample_school("after"));
            if (saved) {
                recovered = true;
            } else {
                EXPECT_EQ(saved.error().kind, StoreErrorKind::Unavailable) << saved.error().message;
            }
        }
        EXPECT_TRUE(recovered);
        const auto loaded = (*store)->load_all();
        ASSERT_TRUE(loaded.has_value());
        EXPECT_EQ(loaded->size(), 2u);
    }
    std::system((script + " stop " + dir.string()).c_str());
}

}  // namespace
}  // namespace hschool::store

namespace hschool::store {
namespace {

// Two servers on one database share their schools through leases, control writes and NOTIFY.
class PgShared : public ::testing::Test {
protected:
    void SetUp() override {
        if (!where_.ready()) GTEST_SKIP() << "no $HSCHOOL_TEST_DATABASE_URL";
        first_ = where_.open_schools();
        second_ = where_.open_schools();
        ASSERT_TRUE(first_ && second_ && first_->shared() && second_->shared());
    }
    SharedClockRow row_of(SchoolStore& store, std::int32_t id) {
        const auto rows = store.shared()->read_clocks();
        EXPECT_TRUE(rows.has_value());
        for (const auto& row : *rows)
            if (row.id == id) return row;
        ADD_FAILURE() << "no row " << id;
        return {};
    }
    testing::StoreLocation where_{Backend::Postgres};
    std::unique_ptr<SchoolStore> first_, second_;
};

TEST(PgSharedSqlite, TheEmbeddedStoreSharesNothing) {
    testing::StoreLocation where(Backend::Sqlite);
    auto store = where.open_schools();
    ASSERT_TRUE(store);
    EXPECT_EQ(store->shared(), nullptr);
}

TEST_F(PgShared, OneServerAtATimeHoldsAClockAndAReleasedOneIsTakenOver) {
    const auto school = first_->insert(testing::sample_school("a"));
    ASSERT_TRUE(school);
    EXPECT_NE(first_->shared()->holder(), second_->shared()->holder());
    const auto taken = first_->shared()->renew_leases();
    ASSERT_TRUE(taken.has_value());
    EXPECT_EQ(*taken, std::vector<std::int32_t>{school->id});
    EXPECT_TRUE(second_->shared()->renew_leases()->empty());  // held, not lapsed
    EXPECT_TRUE(row_of(*first_, school->id).held_here);
    EXPECT_FALSE(row_of(*second_, school->id).held_here);

    first_->shared()->release_leases();  // a clean shutdown
    EXPECT_EQ(*second_->shared()->renew_leases(), std::vector<std::int32_t>{school->id});
    EXPECT_TRUE(first_->shared()->renew_leases()->empty());
}

TEST_F(PgShared, OnlyTheHolderWritesTimeButAnyServerPausesAndEveryoneSeesTheControl) {
    const auto school = first_->insert(testing::sample_school("a"));
    ASSERT_TRUE(school);
    ASSERT_EQ(first_->shared()->renew_leases()->size(), 1u);
    const auto before = row_of(*first_, school->id);

    second_->queue_clock(school->id, 5'000'000'000'000, true, 1);  // time from a non-holder: ignored
    ASSERT_TRUE(second_->flush());
    EXPECT_EQ(row_of(*first_, school->id).state.game_time_ms, before.state.game_time_ms);

    first_->queue_clock(school->id, before.state.game_time_ms + 60'000, true, 1);  // the holder's tick
    ASSERT_TRUE(first_->flush());
    EXPECT_EQ(row_of(*second_, school->id).state.game_time_ms, before.state.game_time_ms + 60'000);

    second_->queue_clock(school->id, before.state.game_time_ms + 70'000, false, 3, /*control=*/true);  // a pause elsewhere
    second_->queue_clock(school->id, before.state.game_time_ms + 71'000, false, 3);  // a tick after it keeps the control
    ASSERT_TRUE(second_->flush());
    const auto after = row_of(*first_, school->id);
    EXPECT_FALSE(after.state.running);
    EXPECT_EQ(after.state.speed_index, 3);
    EXPECT_EQ(after.state.game_time_ms, before.state.game_time_ms + 71'000);
    EXPECT_EQ(after.control_seq, before.control_seq + 1);
}

TEST_F(PgShared, AnAnnouncementWakesTheOtherServer) {
    EXPECT_FALSE(second_->shared()->wait_for_announcement(std::chrono::milliseconds(50)));  // listening now, nothing said
    first_->shared()->announce();
    bool heard = false;
    for (int i = 0; i < 20 && !heard; ++i) heard = second_->shared()->wait_for_announcement(std::chrono::milliseconds(250));
    EXPECT_TRUE(heard);
}

TEST_F(PgShared, LoadOneReadsASchoolCreatedElsewhereAndNothingForAGoneOne) {
    const auto school = first_->insert(testing::sample_school("elsewhere"));
    ASSERT_TRUE(school);
    const auto loaded = second_->shared()->load_one(school->id);
    ASSERT_TRUE(loaded.has_value() && loaded->has_value());
    EXPECT_EQ((*loaded)->name, "elsewhere");
    EXPECT_EQ((*loaded)->mod_ids, testing::sample_school().mod_ids);
    ASSERT_TRUE(first_->remove(school->id).value());
    EXPECT_FALSE(second_->shared()->load_one(school->id)->has_value());
}

}  // namespace
}  // namespace hschool::store
