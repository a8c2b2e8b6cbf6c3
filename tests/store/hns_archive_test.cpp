// The archive of finished hide-and-seek matches: rows in SQLite, replays as files, both or neither.
#include <algorithm>
#include <fstream>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include "store/hns_archive.hpp"
#include "store/school_store.hpp"
#include "store_test_support.hpp"
#include "temp_dir.hpp"

namespace hschool::store {
namespace {

using testing::TempDir;

using testing::sample_match;
using testing::sample_replay;

std::unique_ptr<HnsArchive> open_archive(const TempDir& dir) {
    auto opened = HnsArchive::open(dir.file("hschool.db"), dir.file("matches"));
    EXPECT_TRUE(opened.has_value()) << (opened ? "" : opened.error().message);
    return opened ? std::move(opened).value() : nullptr;
}

std::vector<std::string> ids_of(const std::vector<ArchivedMatch>& matches) {
    std::vector<std::string> ids;
    for (const auto& m : matches) ids.push_back(m.id);
    return ids;
}

void expect_same(const ArchivedMatch& a, const ArchivedMatch& b) {
    EXPECT_EQ(a.id, b.id);
    EXPECT_EQ(a.variant, b.variant);
    EXPECT_EQ(a.finished_at_ms, b.finished_at_ms);
    EXPECT_EQ(a.final_tick, b.final_tick);
    EXPECT_EQ(a.end_reason, b.end_reason);
    EXPECT_EQ(a.results_json, b.results_json);
    EXPECT_EQ(a.summary_json, b.summary_json);
}

std::vector<std::string> folder_names(const std::filesystem::path& folder) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) names.push_back(entry.path().filename());
    std::sort(names.begin(), names.end());
    return names;
}

TEST(HnsArchive, SaveGetListReplayRemoveRoundTrip) {
    TempDir dir;
    auto archive = open_archive(dir);
    ASSERT_NE(archive, nullptr);
    EXPECT_TRUE(std::filesystem::is_directory(dir.file("matches")));

    const auto match = sample_match("m12");
    const auto replay = sample_replay();
    const auto saved = archive->save(match, replay);
    ASSERT_TRUE(saved.has_value()) << saved.error().message;
    EXPECT_EQ(folder_names(dir.file("matches")), std::vector<std::string>{"m12.cowldhns"});

    const auto got = archive->get("m12");
    ASSERT_TRUE(got.has_value()) << got.error().message;
    ASSERT_TRUE(got->has_value());
    expect_same(**got, match);

    const auto listed = archive->list(10);
    ASSERT_TRUE(listed.has_value()) << listed.error().message;
    ASSERT_EQ(listed->size(), 1U);
    expect_same(listed->front(), match);

    const auto bytes = archive->replay("m12");
    ASSERT_TRUE(bytes.has_value()) << bytes.error().message;
    ASSERT_TRUE(bytes->has_value());
    EXPECT_TRUE(**bytes == replay);

    const auto removed = archive->remove("m12");
    ASSERT_TRUE(removed.has_value()) << removed.error().message;
    EXPECT_TRUE(*removed);
    EXPECT_TRUE(folder_names(dir.file("matches")).empty());
    EXPECT_FALSE(archive->get("m12")->has_value());
    EXPECT_FALSE(archive->replay("m12")->has_value());
    EXPECT_FALSE(*archive->remove("m12"));
    EXPECT_TRUE(archive->list(10)->empty());
}

TEST(HnsArchive, AnEmptyReplayAndUnknownIds) {
    TempDir dir;
    auto archive = open_archive(dir);
    ASSERT_TRUE(archive->save(sample_match("m1"), "").has_value());
    EXPECT_EQ(**archive->replay("m1"), "");
    EXPECT_FALSE(archive->get("m2")->has_value());
    EXPECT_FALSE(archive->replay("m2")->has_value());
    EXPECT_FALSE(*archive->remove("m2"));
}

TEST(HnsArchive, SurvivesReopen) {
    TempDir dir;
    const auto replay = sample_replay();
    {
        auto archive = open_archive(dir);
        ASSERT_TRUE(archive->save(sample_match("m1", 1000), replay).has_value());
        ASSERT_TRUE(archive->save(sample_match("m2", 2000), sample_replay(1000, 3)).has_value());
    }
    auto archive = open_archive(dir);
    ASSERT_NE(archive, nullptr);
    EXPECT_EQ(ids_of(*archive->list(10)), (std::vector<std::string>{"m2", "m1"}));
    expect_same(**archive->get("m1"), sample_match("m1", 1000));
    EXPECT_TRUE(**archive->replay("m1") == replay);
    EXPECT_EQ(*archive->max_numeric_id(), 2);
}

TEST(HnsArchive, SharesTheSchoolsFileInEitherOpeningOrder) {
    for (const bool archive_first : {true, false}) {
        TempDir dir;
        const auto db = dir.file("hschool.db");
        std::unique_ptr<HnsArchive> archive;
        std::unique_ptr<SchoolStore> schools;
        if (archive_first) archive = open_archive(dir);
        schools = testing::open_store(db);
        if (!archive_first) archive = open_archive(dir);
        ASSERT_NE(archive, nullptr);
        ASSERT_NE(schools, nullptr);
        ASSERT_TRUE(schools->insert(testing::sample_school()).has_value());
        ASSERT_TRUE(archive->save(sample_match("m3"), sample_replay(100)).has_value());
        schools.reset();
        archive.reset();

        schools = testing::open_store(db);
        ASSERT_NE(schools, nullptr);
        EXPECT_EQ(schools->load_all()->size(), 1U);
        archive = open_archive(dir);
        ASSERT_NE(archive, nullptr);
        EXPECT_EQ(ids_of(*archive->list(10)), std::vector<std::string>{"m3"});
    }
}

TEST(HnsArchive, BadIdsAreRefused) {
    TempDir dir;
    auto archive = open_archive(dir);
    const std::string too_long(kMaxArchivedIdBytes + 1, 'a');
    for (const std::string& id : {std::string(), std::string(".."), std::string("../m1"), std::string("m1.x"),
                                  std::string("m/1"), std::string("m 1"), std::string("m\\1"), std::string("é"),
                                  std::string("m1\n"), std::string("m1\0x", 4), too_long}) {
        const auto saved = archive->save(sample_match(id), "x");
        ASSERT_FALSE(saved.has_value()) << id;
        EXPECT_NE(saved.error().message.find("invalid match id"), std::string::npos);
        EXPECT_FALSE(archive->get(id)->has_value());
        EXPECT_FALSE(archive->replay(id)->has_value());
        EXPECT_FALSE(*archive->remove(id));
    }
    EXPECT_TRUE(folder_names(dir.file("matches")).empty());
    EXPECT_FALSE(std::filesystem::exists(dir.file("m1.cowldhns")));
    EXPECT_TRUE(archive->list(100)->empty());

    const std::string longest(kMaxArchivedIdBytes, 'Z');
    EXPECT_TRUE(archive->save(sample_match(longest), "x").has_value());
    EXPECT_TRUE(archive->save(sample_match("a-B_9"), "x").has_value());
    EXPECT_TRUE(is_valid_archived_match_id("m0"));
    EXPECT_FALSE(is_valid_archived_match_id("m.0"));
}

TEST(HnsArchive, ADuplicateIdIsRefusedAndTheFirstKept) {
    TempDir dir;
    auto archive = open_archive(dir);
    const auto first = sample_replay(500, 1);
    ASSERT_TRUE(archive->save(sample_match("m5", 10), first).has_value());
    auto second = sample_match("m5", 20);
    second.end_reason = "deadline";
    const auto saved = archive->save(second, sample_replay(700, 2));
    ASSERT_FALSE(saved.has_value());
    EXPECT_NE(saved.error().message.find("already archived"), std::string::npos);
    EXPECT_EQ((**archive->get("m5")).end_reason, "complete");
    EXPECT_TRUE(**archive->replay("m5") == first);
}

TEST(HnsArchive, AReplayFileDeletedByHandIsAnErrorNotACrash) {
    TempDir dir;
    auto archive = open_archive(dir);
    ASSERT_TRUE(archive->save(sample_match("m4"), sample_replay()).has_value());
    std::filesystem::remove(dir.file("matches") / "m4.cowldhns");

    const auto bytes = archive->replay("m4");
    ASSERT_FALSE(bytes.has_value());
    EXPECT_EQ(bytes.error().kind, StoreErrorKind::Io);
    EXPECT_NE(bytes.error().message.find("missing"), std::string::npos) << bytes.error().message;
    // The row still answers; removing it works and says it existed.
    EXPECT_TRUE(archive->get("m4")->has_value());
    EXPECT_EQ(archive->list(10)->size(), 1U);
    EXPECT_TRUE(*archive->remove("m4"));
    EXPECT_FALSE(archive->get("m4")->has_value());
}

TEST(HnsArchive, AReplayFileChangedByHandIsAnError) {
    TempDir dir;
    auto archive = open_archive(dir);
    ASSERT_TRUE(archive->save(sample_match("m4"), sample_replay(1000)).has_value());
    std::filesystem::resize_file(dir.file("matches") / "m4.cowldhns", 10);
    const auto truncated = archive->replay("m4");
    ASSERT_FALSE(truncated.has_value());
    EXPECT_EQ(truncated.error().kind, StoreErrorKind::Io);

    std::filesystem::remove(dir.file("matches") / "m4.cowldhns");
    std::filesystem::create_directory(dir.file("matches") / "m4.cowldhns");
    const auto directory = archive->replay("m4");
    ASSERT_FALSE(directory.has_value());
    EXPECT_EQ(directory.error().kind, StoreErrorKind::Io);
}

TEST(HnsArchive, AReplayOverTheLimitIsRefused) {
    TempDir dir;
    auto archive = open_archive(dir);
    const std::string big(kMaxArchivedReplayBytes + 1, 'x');
    const auto saved = archive->save(sample_match("m9"), big);
    ASSERT_FALSE(saved.has_value());
    EXPECT_EQ(saved.error().kind, StoreErrorKind::LimitReached);
    EXPECT_FALSE(archive->get("m9")->has_value());
    EXPECT_TRUE(folder_names(dir.file("matches")).empty());

    auto fat = sample_match("m10");
    fat.results_json.assign(kMaxArchivedJsonBytes + 1, ' ');
    const auto fat_saved = archive->save(fat, "x");
    ASSERT_FALSE(fat_saved.has_value());
    EXPECT_EQ(fat_saved.error().kind, StoreErrorKind::LimitReached);
}

TEST(HnsArchive, ListIsNewestFirstAndHonoursTheLimit) {
    TempDir dir;
    auto archive = open_archive(dir);
    ASSERT_TRUE(archive->save(sample_match("m1", 100), "a").has_value());
    ASSERT_TRUE(archive->save(sample_match("m2", 300), "b").has_value());
    ASSERT_TRUE(archive->save(sample_match("m3", 200), "c").has_value());
    ASSERT_TRUE(archive->save(sample_match("m4", 300), "d").has_value());  // same time: the later save first
    EXPECT_EQ(ids_of(*archive->list(10)), (std::vector<std::string>{"m4", "m2", "m3", "m1"}));
    EXPECT_EQ(ids_of(*archive->list(2)), (std::vector<std::string>{"m4", "m2"}));
    EXPECT_EQ(ids_of(*archive->list(4)), (std::vector<std::string>{"m4", "m2", "m3", "m1"}));
    EXPECT_TRUE(archive->list(0)->empty());
    EXPECT_EQ(archive->list(std::numeric_limits<std::size_t>::max())->size(), 4U);
}

TEST(HnsArchive, MaxNumericIdContinuesTheNumbering) {
    TempDir dir;
    auto archive = open_archive(dir);
    EXPECT_EQ(*archive->max_numeric_id(), 0);
    for (const char* id : {"m2", "m10", "m9", "custom", "m1x", "m", "x99", "m99999999999999999999"})
        ASSERT_TRUE(archive->save(sample_match(id), "r").has_value()) << id;
    EXPECT_EQ(*archive->max_numeric_id(), 10);
    ASSERT_TRUE(archive->save(sample_match("m0042"), "r").has_value());
    EXPECT_EQ(*archive->max_numeric_id(), 42);
    ASSERT_TRUE(*archive->remove("m0042"));
    EXPECT_EQ(*archive->max_numeric_id(), 10);
}

TEST(HnsArchive, OpenSweepsInterruptedSavesAndLeavesOtherFiles) {
    TempDir dir;
    {
        auto archive = open_archive(dir);
        ASSERT_TRUE(archive->save(sample_match("m1"), "kept").has_value());
    }
    const auto folder = dir.file("matches");
    std::ofstream(folder / "m7.cowldhns") << "renamed but never committed";
    std::ofstream(folder / "m8.cowldhns.tmp") << "half written";
    std::ofstream(folder / "notes.txt") << "not ours";
    auto archive = open_archive(dir);
    ASSERT_NE(archive, nullptr);
    EXPECT_EQ(folder_names(folder), (std::vector<std::string>{"m1.cowldhns", "notes.txt"}));
    EXPECT_EQ(**archive->replay("m1"), "kept");
}

TEST(HnsArchive, AFailedWriteLeavesNeitherFileNorRow) {
    TempDir dir;
    auto archive = open_archive(dir);
    // The temp file cannot be created where a directory of its name stands.
    std::filesystem::create_directory(dir.file("matches") / "m1.cowldhns.tmp");
    const auto saved = archive->save(sample_match("m1"), sample_replay(100));
    ASSERT_FALSE(saved.has_value());
    EXPECT_EQ(saved.error().kind, StoreErrorKind::Io);
    EXPECT_FALSE(archive->get("m1")->has_value());
    EXPECT_FALSE(std::filesystem::exists(dir.file("matches") / "m1.cowldhns"));
}

TEST(HnsArchive, AFailedInsertRemovesTheReplayFile) {
    TempDir dir;
    auto archive = open_archive(dir);
    {
        SQLite::Database other(dir.file("hschool.db").string(), SQLite::OPEN_READWRITE);
        other.exec("CREATE TRIGGER refuse BEFORE INSERT ON hns_matches BEGIN SELECT RAISE(ABORT, 'refused'); END");
    }
    const auto saved = archive->save(sample_match("m1"), sample_replay(100));
    ASSERT_FALSE(saved.has_value());
    EXPECT_EQ(saved.error().kind, StoreErrorKind::Io);
    EXPECT_TRUE(folder_names(dir.file("matches")).empty());
    EXPECT_FALSE(archive->get("m1")->has_value());
}

TEST(HnsArchive, OpenFailuresAreValues) {
    TempDir dir;
    std::ofstream(dir.file("file")) << "x";
    const auto folder_is_file = HnsArchive::open(dir.file("a.db"), dir.file("file"));
    ASSERT_FALSE(folder_is_file.has_value());
    EXPECT_EQ(folder_is_file.error().kind, StoreErrorKind::OpenFailed);

    std::ofstream(dir.file("garbage.db")) << std::string(8192, 'g');
    const auto garbage = HnsArchive::open(dir.file("garbage.db"), dir.file("m"));
    ASSERT_FALSE(garbage.has_value());
    EXPECT_EQ(garbage.error().kind, StoreErrorKind::OpenFailed);

    {
        SQLite::Database other(dir.file("odd.db").string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        other.exec("CREATE TABLE hns_matches (id TEXT PRIMARY KEY, something_else TEXT)");
    }
    const auto odd = HnsArchive::open(dir.file("odd.db"), dir.file("m"));
    ASSERT_FALSE(odd.has_value());
    EXPECT_EQ(odd.error().kind, StoreErrorKind::OpenFailed);
}

TEST(HnsArchive, ConcurrentCallersShareOneArchive) {
    TempDir dir;
    auto archive = open_archive(dir);
    constexpr int kThreads = 4;
    constexpr int kPerThread = 10;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&archive, t] {
            for (int i = 0; i < kPerThread; ++i) {
                const std::string id = "m" + std::to_string(t * kPerThread + i + 1);
                EXPECT_TRUE(archive->save(sample_match(id, t * 1000 + i), sample_replay(2000, t)).has_value());
                EXPECT_TRUE(archive->list(5).has_value());
                EXPECT_TRUE(**archive->replay(id) == sample_replay(2000, t));
            }
        });
    }
    for (auto& thread : threads) thread.join();
    EXPECT_EQ(archive->list(1000)->size(), static_cast<std::size_t>(kThreads * kPerThread));
    EXPECT_EQ(*archive->max_numeric_id(), kThreads * kPerThread);
}

}  // namespace
}  // namespace hschool::store

namespace hschool::store {
namespace {

TEST(HnsArchiveOwners, TheOwnerHashIsSavedAndRead) {
    testing::TempDir dir;
    auto archive = open_archive(dir);
    ASSERT_TRUE(archive);
    ArchivedMatch owned = sample_match("m1");
    owned.owner_hash = std::string(64, 'c');
    ASSERT_TRUE(archive->save(owned, sample_replay(1024)));
    ASSERT_TRUE(archive->save(sample_match("m2"), sample_replay(1024)));
    archive.reset();
    archive = open_archive(dir);
    ASSERT_TRUE(archive);
    auto got = archive->get("m1");
    ASSERT_TRUE(got && *got);
    EXPECT_EQ((*got)->owner_hash, owned.owner_hash);
    got = archive->get("m2");
    ASSERT_TRUE(got && *got);
    EXPECT_EQ((*got)->owner_hash, "");
}

// An archive table from before owners gains the column; its matches belong to the operator.
TEST(HnsArchiveOwners, AnOldTableIsMigrated) {
    testing::TempDir dir;
    {
        SQLite::Database raw(dir.file("hschool.db").string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        raw.exec(R"sql(
CREATE TABLE hns_matches (
    id TEXT PRIMARY KEY NOT NULL, variant TEXT NOT NULL, finished_at_ms INTEGER NOT NULL,
    final_tick INTEGER NOT NULL, end_reason TEXT NOT NULL, results_json TEXT NOT NULL,
    summary_json TEXT NOT NULL, replay_bytes INTEGER NOT NULL CHECK (replay_bytes >= 0)) STRICT;
INSERT INTO hns_matches VALUES ('m7', 'certification', 1, 949, 'complete', '{}', '{}', 0);
)sql");
    }
    std::filesystem::create_directories(dir.file("matches"));
    std::ofstream(dir.file("matches") / "m7.cowldhns", std::ios::binary);  // an empty replay, as saved
    auto archive = open_archive(dir);
    ASSERT_TRUE(archive);
    auto got = archive->get("m7");
    ASSERT_TRUE(got && *got);
    EXPECT_EQ((*got)->final_tick, 949);
    EXPECT_EQ((*got)->owner_hash, "");
    ArchivedMatch owned = sample_match("m8");
    owned.owner_hash = std::string(64, 'd');
    ASSERT_TRUE(archive->save(owned, sample_replay(1024)));
}

}  // namespace
}  // namespace hschool::store

namespace hschool::store {
namespace {

// Archives kept in the schools' file before they had their own move over once, owners and all.
TEST(HnsArchiveImport, RowsInAnotherFileMoveOverAndTheOldTableGoes) {
    testing::TempDir dir;
    {
        auto old = HnsArchive::open(dir.file("hschool.db"), dir.file("matches"));
        ASSERT_TRUE(old.has_value());
        ArchivedMatch owned = sample_match("m3");
        owned.owner_hash = std::string(64, 'f');
        ASSERT_TRUE((*old)->save(owned, sample_replay(2048)));
        ASSERT_TRUE((*old)->save(sample_match("m4"), sample_replay(1024)));
    }
    auto opened = HnsArchive::open(dir.file("matches") / "archive.db", dir.file("matches"), dir.file("hschool.db"));
    ASSERT_TRUE(opened.has_value()) << opened.error().message;
    auto& archive = *opened;
    EXPECT_EQ(archive->imported(), 2U);
    auto got = archive->get("m3");
    ASSERT_TRUE(got && *got);
    EXPECT_EQ((*got)->owner_hash, std::string(64, 'f'));
    auto bytes = archive->replay("m3");
    ASSERT_TRUE(bytes && *bytes);
    EXPECT_EQ(**bytes, sample_replay(2048));
    SQLite::Database raw(dir.file("hschool.db").string(), SQLite::OPEN_READONLY);
    EXPECT_FALSE(raw.tableExists("hns_matches"));
    archive.reset();
    // Again: nothing left to move, and a file that does not exist is not an error.
    auto again = HnsArchive::open(dir.file("matches") / "archive.db", dir.file("matches"), dir.file("hschool.db"));
    ASSERT_TRUE(again.has_value());
    EXPECT_EQ((*again)->imported(), 0U);
    EXPECT_TRUE((*again)->replay("m4").has_value());
    auto nowhere = HnsArchive::open(dir.file("matches") / "archive.db", dir.file("matches"), dir.file("nowhere.db"));
    ASSERT_TRUE(nowhere.has_value());
    EXPECT_EQ((*nowhere)->imported(), 0U);
}

TEST(HnsArchiveImport, TheReplayFileIsCheckedWithoutReadingIt) {
    testing::TempDir dir;
    auto archive = open_archive(dir);
    ASSERT_TRUE(archive);
    ASSERT_TRUE(archive->save(sample_match("m1"), sample_replay(4096)));
    auto file = archive->replay_file("m1");
    ASSERT_TRUE(file && *file);
    EXPECT_EQ((*file)->bytes, 4096U);
    EXPECT_EQ((*file)->path, dir.file("matches") / "m1.cowldhns");
    file = archive->replay_file("m2");
    ASSERT_TRUE(file);
    EXPECT_FALSE(*file);
    std::ofstream(dir.file("matches") / "m1.cowldhns", std::ios::app) << "tampered";
    EXPECT_FALSE(archive->replay_file("m1")) << "a file of another size than was saved is an error";
}

}  // namespace
}  // namespace hschool::store
