#include "store/school_store.hpp"

#include <thread>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include "store/schema.hpp"
#include "store_backend.hpp"
#include "store_test_support.hpp"
#include "temp_dir.hpp"

namespace hschool::store {
namespace {

using testing::open_store;
using testing::sample_school;
using testing::TempDir;

class SchoolStoreBackends : public ::testing::TestWithParam<testing::Backend> {};

std::vector<SchoolRecord> load(SchoolStore& store) {
    auto loaded = store.load_all();
    EXPECT_TRUE(loaded.has_value());
    return loaded ? *loaded : std::vector<SchoolRecord>{};
}

TEST_P(SchoolStoreBackends, InsertThenLoadRoundTripsEveryField) {
    HSCHOOL_STORE_LOCATION(where);
    auto store = where.open_schools();
    ASSERT_TRUE(store);
    NewSchool school = sample_school("Лицей «Северная» 🏫 — ünïcødé");
    school.running = false;
    school.speed_index = 4;
    school.game_time_ms = -2208988800000;  // 1900: negative times survive

    const auto inserted = store->insert(school);
    ASSERT_TRUE(inserted.has_value()) << inserted.error().message;
    EXPECT_GT(inserted->id, 0);
    EXPECT_GT(inserted->created_at_ms, 0);

    const auto schools = load(*store);
    ASSERT_EQ(schools.size(), 1u);
    const SchoolRecord& loaded = schools[0];
    EXPECT_EQ(loaded.id, inserted->id);
    EXPECT_EQ(loaded.name, "Лицей «Северная» 🏫 — ünïcødé");
    EXPECT_EQ(loaded.start_date_ms, school.start_date_ms);
    EXPECT_EQ(loaded.mod_ids, (std::vector<std::string>{"core", "extra-b", "extra-a"}));
    EXPECT_EQ(loaded.map_json, school.map_json);
    EXPECT_EQ(loaded.game_time_ms, -2208988800000);
    EXPECT_FALSE(loaded.running);
    EXPECT_EQ(loaded.speed_index, 4);
    EXPECT_EQ(loaded.created_at_ms, inserted->created_at_ms);
}

TEST_P(SchoolStoreBackends, EmptyStoreLoadsNothing) {
    HSCHOOL_STORE_LOCATION(where);
    auto store = where.open_schools();
    ASSERT_TRUE(store);
    EXPECT_TRUE(load(*store).empty());
}

TEST_P(SchoolStoreBackends, SchoolsLoadInIdOrderWithTheirOwnMods) {
    HSCHOOL_STORE_LOCATION(where);
    auto store = where.open_schools();
    ASSERT_TRUE(store);
    NewSchool first = sample_school("first");
    first.mod_ids = {"core"};
    NewSchool second = sample_school("second");
    second.mod_ids = {};
    NewSchool third = sample_school("third");
    third.mod_ids = {"core", "z", "a", "m"};
    for (const auto& school : {first, second, third}) ASSERT_TRUE(store->insert(school).has_value());

    const auto schools = load(*store);
    ASSERT_EQ(schools.size(), 3u);
    EXPECT_EQ(schools[0].name, "first");
    EXPECT_EQ(schools[0].mod_ids, std::vector<std::string>{"core"});
    EXPECT_TRUE(schools[1].mod_ids.empty());
    EXPECT_EQ(schools[2].mod_ids, (std::vector<std::string>{"core", "z", "a", "m"}));
    EXPECT_LT(schools[0].id, schools[1].id);
    EXPECT_LT(schools[1].id, schools[2].id);
}

TEST_P(SchoolStoreBackends, IdsAreNeverReusedAfterDeleteEvenAcrossReopen) {
    HSCHOOL_STORE_LOCATION(where);
    std::int32_t highest = 0;
    {
        auto store = where.open_schools();
        ASSERT_TRUE(store);
        const auto a = store->insert(sample_school("a"));
        const auto b = store->insert(sample_school("b"));
        ASSERT_TRUE(a && b);
        ASSERT_TRUE(store->remove(b->id).value());
        const auto c = store->insert(sample_school("c"));
        ASSERT_TRUE(c);
        EXPECT_GT(c->id, b->id);
        ASSERT_TRUE(store->remove(a->id).value());
        ASSERT_TRUE(store->remove(c->id).value());
        highest = c->id;
    }
    auto reopened = where.open_schools();
    ASSERT_TRUE(reopened);
    EXPECT_TRUE(load(*reopened).empty());
    const auto d = reopened->insert(sample_school("d"));
    ASSERT_TRUE(d);
    EXPECT_GT(d->id, highest);
}

TEST_P(SchoolStoreBackends, RemoveReportsWhetherTheSchoolExisted) {
    HSCHOOL_STORE_LOCATION(where);
    auto store = where.open_schools();
    ASSERT_TRUE(store);
    const auto school = store->insert(sample_school());
    ASSERT_TRUE(school);

    const auto unknown = store->remove(school->id + 100);
    ASSERT_TRUE(unknown.has_value());
    EXPECT_FALSE(*unknown);

    const auto existing = store->remove(school->id);
    ASSERT_TRUE(existing.has_value());
    EXPECT_TRUE(*existing);

    const auto again = store->remove(school->id);
    ASSERT_TRUE(again.has_value());
    EXPECT_FALSE(*again);
    EXPECT_TRUE(load(*store).empty());
}

TEST_P(SchoolStoreBackends, RemoveDeletesTheSchoolsModsToo) {
    HSCHOOL_STORE_LOCATION(where);
    auto store = where.open_schools();
    ASSERT_TRUE(store);
    const auto school = store->insert(sample_school());
    ASSERT_TRUE(school);
    ASSERT_TRUE(store->remove(school->id).value());

    EXPECT_EQ(where.count_rows("school_mods"), 0);
}

TEST_P(SchoolStoreBackends, InsertWithinLimitRefusesOnceTheLimitIsMet) {
    HSCHOOL_STORE_LOCATION(where);
    auto store = where.open_schools();
    ASSERT_TRUE(store);
    constexpr std::size_t kLimit = 2;
    const auto a = store->insert_within_limit(sample_school("a"), kLimit);
    ASSERT_TRUE(a);
    ASSERT_TRUE(store->insert_within_limit(sample_school("b"), kLimit));

    const auto refused = store->insert_within_limit(sample_school("c"), kLimit);
    ASSERT_FALSE(refused.has_value());
    EXPECT_EQ(refused.error().kind, StoreErrorKind::LimitReached);
    EXPECT_EQ(load(*store).size(), 2u);

    ASSERT_TRUE(store->remove(a->id).value());
    EXPECT_TRUE(store->insert_within_limit(sample_school("c"), kLimit).has_value());
}

TEST_P(SchoolStoreBackends, QueueClockThenFlushPersistsTheLatestState) {
    HSCHOOL_STORE_LOCATION(where);
    auto store = where.open_schools();
    ASSERT_TRUE(store);
    const auto school = store->insert(sample_school());
    ASSERT_TRUE(school);

    testing::hold_clocks(*store);  // a shared database takes time passing from the lease's holder only
    for (std::int64_t tick = 1; tick <= 49; ++tick) store->queue_clock(school->id, school->game_time_ms + tick * 15'000, true, 1);
    store->queue_clock(school->id, school->game_time_ms + 50 * 15'000, false, 0, /*control=*/true);  // then a pause
    ASSERT_TRUE(store->flush().has_value());

    const auto schools = load(*store);
    ASSERT_EQ(schools.size(), 1u);
    EXPECT_EQ(schools[0].game_time_ms, school->game_time_ms + 50 * 15'000);
    EXPECT_FALSE(schools[0].running);
    EXPECT_EQ(schools[0].speed_index, 0);
    EXPECT_EQ(schools[0].name, school->name);  // a clock touches only the clock columns
    EXPECT_EQ(schools[0].mod_ids, school->mod_ids);
}

TEST_P(SchoolStoreBackends, QueuedClockOfADeletedSchoolDoesNotResurrectIt) {
    HSCHOOL_STORE_LOCATION(where);
    auto store = where.open_schools();
    ASSERT_TRUE(store);
    const auto school = store->insert(sample_school());
    ASSERT_TRUE(school);

    store->queue_clock(school->id, 1, true, 1);
    ASSERT_TRUE(store->remove(school->id).value());
    store->queue_clock(school->id, 2, true, 1);  // the loop has not heard of the delete yet
    store->queue_clock(school->id + 1, 3, true, 1);  // an id that never existed
    ASSERT_TRUE(store->flush().has_value());

    EXPECT_TRUE(load(*store).empty());
}

TEST_P(SchoolStoreBackends, ReopenAfterDestructorKeepsSchoolsAndQueuedClocks) {
    HSCHOOL_STORE_LOCATION(where);
    std::int32_t id = 0;
    {
        auto store = where.open_schools();
        ASSERT_TRUE(store);
        const auto school = store->insert(sample_school());
        ASSERT_TRUE(school);
        id = school->id;
        testing::hold_clocks(*store);
        store->queue_clock(id, 999'999, false, 3, /*control=*/true);  // no flush: the destructor must write it
    }
    auto reopened = where.open_schools();
    ASSERT_TRUE(reopened);
    const auto schools = load(*reopened);
    ASSERT_EQ(schools.size(), 1u);
    EXPECT_EQ(schools[0].id, id);
    EXPECT_EQ(schools[0].game_time_ms, 999'999);
    EXPECT_FALSE(schools[0].running);
    EXPECT_EQ(schools[0].speed_index, 3);
    EXPECT_EQ(schools[0].mod_ids, sample_school().mod_ids);
}

TEST(SchoolStore, WalModeAndSchemaVersionAreOnDisk) {
    TempDir dir;
    auto store = open_store(dir.file("schools.db"));
    ASSERT_TRUE(store);
    SQLite::Database raw(dir.file("schools.db").string(), SQLite::OPEN_READONLY);
    EXPECT_EQ(raw.execAndGet("PRAGMA journal_mode").getString(), "wal");
    EXPECT_EQ(raw.execAndGet("PRAGMA user_version").getInt(), kSchemaVersion);
}

TEST_P(SchoolStoreBackends, LoopThreadQueuesWhileHttpThreadsInsertAndRemove) {
    HSCHOOL_STORE_LOCATION(where);
    auto store = where.open_schools();
    ASSERT_TRUE(store);
    const auto kept = store->insert(sample_school("kept"));
    ASSERT_TRUE(kept);
    constexpr int kRounds = 200;
    testing::hold_clocks(*store);

    std::thread loop([&] {
        for (int tick = 1; tick <= kRounds; ++tick) {
            store->queue_clock(kept->id, tick, true, 1);
            for (std::int32_t other = kept->id + 1; other <= kept->id + 5; ++other) store->queue_clock(other, tick, true, 1);
        }
    });
    int churned = 0;
    for (int round = 0; round < 20; ++round) {
        const auto temporary = store->insert(sample_school("temporary"));
        bool removed = false;
        if (temporary) {
            const auto removal = store->remove(temporary->id);
            removed = removal && *removal;
        }
        if (removed) ++churned;
    }
    loop.join();
    ASSERT_TRUE(store->flush().has_value());

    const auto schools = load(*store);
    ASSERT_EQ(schools.size(), 1u);  // no churned school came back through a clock
    EXPECT_EQ(schools[0].name, "kept");
    EXPECT_EQ(schools[0].game_time_ms, kRounds);
    EXPECT_EQ(churned, 20);  // every insert and remove succeeded alongside the writer
    EXPECT_FALSE(store->last_clock_write_error().has_value());
}

}  // namespace
}  // namespace hschool::store

namespace hschool::store {
namespace {

TEST_P(SchoolStoreBackends, TheOwnerHashIsKeptAndLookedUpById) {
    HSCHOOL_STORE_LOCATION(where);
    auto store = where.open_schools();
    ASSERT_TRUE(store);
    NewSchool owned = testing::sample_school("owned");
    owned.owner_hash = std::string(64, 'a');
    const auto a = store->insert(owned);
    const auto b = store->insert(testing::sample_school("operator's"));
    ASSERT_TRUE(a && b);
    auto hash = store->owner_hash(a->id);
    ASSERT_TRUE(hash && *hash);
    EXPECT_EQ(**hash, owned.owner_hash);
    hash = store->owner_hash(b->id);
    ASSERT_TRUE(hash && *hash);
    EXPECT_EQ(**hash, "");
    hash = store->owner_hash(9999);
    ASSERT_TRUE(hash);
    EXPECT_FALSE(*hash) << "an unknown id has no owner";
    store.reset();
    auto reopened = where.open_schools();
    ASSERT_TRUE(reopened);
    const auto rows = reopened->load_all();
    ASSERT_TRUE(rows);
    ASSERT_EQ(rows->size(), 2U);
    EXPECT_EQ((*rows)[0].owner_hash, owned.owner_hash);
}

// A file written by the first schema (no owners) opens, gains the column, keeps its schools,
// and they belong to the operator.
TEST(SchoolStoreOwners, AVersion1FileIsMigrated) {
    testing::TempDir dir;
    {
        SQLite::Database raw(dir.file("schools.db").string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        raw.exec(R"sql(
CREATE TABLE schools (
    id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, start_date_ms INTEGER NOT NULL,
    map_json TEXT NOT NULL, game_time_ms INTEGER NOT NULL, running INTEGER NOT NULL CHECK (running IN (0, 1)),
    speed_index INTEGER NOT NULL CHECK (speed_index BETWEEN 0 AND 255), created_at_ms INTEGER NOT NULL) STRICT;
CREATE TABLE school_mods (
    school_id INTEGER NOT NULL REFERENCES schools(id) ON DELETE CASCADE, position INTEGER NOT NULL,
    mod_id TEXT NOT NULL, PRIMARY KEY (school_id, position)) STRICT, WITHOUT ROWID;
INSERT INTO schools (name, start_date_ms, map_json, game_time_ms, running, speed_index, created_at_ms)
    VALUES ('Старая', 0, '{}', 5, 1, 1, 0);
PRAGMA user_version = 1;
)sql");
    }
    auto store = testing::open_store(dir.file("schools.db"));
    ASSERT_TRUE(store);
    const auto rows = store->load_all();
    ASSERT_TRUE(rows);
    ASSERT_EQ(rows->size(), 1U);
    EXPECT_EQ((*rows)[0].name, "Старая");
    EXPECT_EQ((*rows)[0].owner_hash, "");
    NewSchool owned = testing::sample_school("new");
    owned.owner_hash = std::string(64, 'b');
    const auto inserted = store->insert(owned);
    ASSERT_TRUE(inserted) << inserted.error().message;
    store.reset();
    SQLite::Database raw(dir.file("schools.db").string(), SQLite::OPEN_READONLY);
    EXPECT_EQ(raw.execAndGet("PRAGMA user_version").getInt(), kSchemaVersion);
}

}  // namespace
}  // namespace hschool::store

namespace hschool::store {
namespace {
using testing::Backend;
INSTANTIATE_TEST_SUITE_P(Backends, SchoolStoreBackends, ::testing::Values(Backend::Sqlite, Backend::Postgres), testing::backend_name);
}  // namespace
}  // namespace hschool::store
