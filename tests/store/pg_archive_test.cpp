// The hide-and-seek archive in PostgreSQL (issue 34): rows and replay bytes together, listed by
// every server on the database, match numbers unique across servers.
#include <algorithm>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "store/pg/pg_hns_archive.hpp"
#include "store_backend.hpp"
#include "store_test_support.hpp"

namespace hschool::store {
namespace {

using testing::sample_match;
using testing::sample_replay;

class PgArchive : public ::testing::Test {
protected:
    void SetUp() override {
        if (!where_.ready()) GTEST_SKIP() << "no $HSCHOOL_TEST_DATABASE_URL";
        first_ = open();
        second_ = open();  // another server on the same database
        ASSERT_TRUE(first_ && second_);
    }
    std::unique_ptr<HnsArchive> open() {
        auto opened = HnsArchive::open_postgres(where_.url());
        EXPECT_TRUE(opened.has_value()) << (opened ? "" : opened.error().message);
        return opened ? std::move(opened).value() : nullptr;
    }
    testing::StoreLocation where_{testing::Backend::Postgres};
    std::unique_ptr<HnsArchive> first_, second_;
};

TEST_F(PgArchive, AMatchSavedByOneServerIsListedAndServedByAnother) {
    const auto replay = sample_replay(300 * 1024);
    auto owned = sample_match("m1", 1000);
    owned.owner_hash = std::string(64, 'c');
    ASSERT_TRUE(first_->save(owned, replay).has_value());
    const auto listed = second_->list(50);
    ASSERT_TRUE(listed.has_value());
    ASSERT_EQ(listed->size(), 1u);
    EXPECT_EQ((*listed)[0].id, "m1");
    EXPECT_EQ((*listed)[0].summary_json, R"({"seats":[{"name":"Аня","policy":"burrow"}]})");
    EXPECT_EQ((*listed)[0].owner_hash, std::string(64, 'c'));
    const auto bytes = second_->replay("m1");
    ASSERT_TRUE(bytes.has_value() && bytes->has_value());
    EXPECT_EQ(**bytes, replay);  // byte for byte, NULs and all
    const auto row = second_->get("m1");
    ASSERT_TRUE(row.has_value() && row->has_value());
    EXPECT_EQ((*row)->final_tick, 14400);
}

TEST_F(PgArchive, ADuplicateIdIsRefusedAndTheFirstKept) {
    ASSERT_TRUE(first_->save(sample_match("m7", 1000), "first").has_value());
    const auto again = second_->save(sample_match("m7", 2000), "second");
    ASSERT_FALSE(again.has_value());
    EXPECT_EQ(**first_->replay("m7"), "first");
}

TEST_F(PgArchive, HostileIdsKindsAndSizesAreRefusedOrUnknown) {
    EXPECT_FALSE(first_->save(sample_match("../etc", 1), "x").has_value());
    EXPECT_FALSE(first_->save(sample_match("m1' OR '1'='1", 1), "x").has_value());
    EXPECT_FALSE(first_->save(sample_match("m2", 1, "other"), "x").has_value());
    auto huge = sample_match("m3", 1);
    huge.results_json.assign(kMaxArchivedJsonBytes + 1, 'x');
    const auto refused = first_->save(huge, "x");
    ASSERT_FALSE(refused.has_value());
    EXPECT_EQ(refused.error().kind, StoreErrorKind::LimitReached);
    EXPECT_FALSE(first_->get("m1' OR '1'='1")->has_value());
    EXPECT_FALSE(first_->replay("").value().has_value());
    EXPECT_FALSE(first_->remove("nope").value());
    EXPECT_TRUE(first_->list(50)->empty());
}

TEST_F(PgArchive, KindsAreListedAndTrimmedApartNewestFirst) {
    for (int i = 1; i <= 4; ++i) ASSERT_TRUE(first_->save(sample_match("m" + std::to_string(i), 1000 + i), "r").has_value());
    for (int i = 1; i <= 6; ++i)
        ASSERT_TRUE(second_->save(sample_match("l" + std::to_string(i), 5000 + i, kArchiveKindLeague), "r").has_value());
    const auto matches = first_->list(50);
    ASSERT_EQ(matches->size(), 4u);
    EXPECT_EQ((*matches)[0].id, "m4");
    EXPECT_EQ((*matches)[3].id, "m1");
    EXPECT_EQ(first_->trim(kArchiveKindLeague, 2).value(), 4u);
    EXPECT_EQ(first_->list(50, kArchiveKindLeague)->size(), 2u);
    EXPECT_EQ(first_->list(50)->size(), 4u);  // the league's trim never touched ordinary matches
    EXPECT_TRUE(second_->remove("m2").value());
    EXPECT_FALSE(first_->get("m2")->has_value());
}

TEST_F(PgArchive, MatchNumbersAreNeverHandedOutTwiceAcrossServers) {
    std::vector<std::int64_t> a, b;
    std::thread one([&] { for (int i = 0; i < 50; ++i) a.push_back(first_->claim_numeric_id().value().value()); });
    std::thread two([&] { for (int i = 0; i < 50; ++i) b.push_back(second_->claim_numeric_id().value().value()); });
    one.join();
    two.join();
    std::set<std::int64_t> all(a.begin(), a.end());
    all.insert(b.begin(), b.end());
    EXPECT_EQ(all.size(), 100u);
    EXPECT_GT(*all.begin(), 0);
}

TEST_F(PgArchive, OneHundredSimultaneousFinishesAreAllKept) {
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([this, t] {
            auto* archive = t % 2 ? first_.get() : second_.get();
            for (int i = 0; i < 25; ++i) {
                const auto id = "m" + std::to_string(t * 100 + i);
                EXPECT_TRUE(archive->save(sample_match(id, 1000 + i), sample_replay(20 * 1024)).has_value()) << id;
            }
        });
    }
    for (auto& thread : threads) thread.join();
    EXPECT_EQ(first_->list(500)->size(), 100u);
}

}  // namespace
}  // namespace hschool::store
