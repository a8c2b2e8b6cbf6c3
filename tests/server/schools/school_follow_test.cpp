// Several servers on one database (issue 34), the loop's side: what SchoolsService::follow does with
// a view of the database, without a database — stale views never undo a local change, controls made
// anywhere are adopted, and a clock this server does not hold follows the holder but never goes back.
#include <gtest/gtest.h>

#include "content/library.hpp"
#include "outbox_reader.hpp"
#include "server/metrics.hpp"
#include "server/schools/schools_service.hpp"

namespace hschool::server {
namespace {

namespace v4 = protocol::v4;
using Clock = std::chrono::steady_clock;

class SchoolFollowTest : public ::testing::Test {
protected:
    SchoolState school(std::int32_t id) {
        auto packs = library.resolve({});
        EXPECT_TRUE(packs);
        SchoolState s;
        s.id = id;
        s.name = "school " + std::to_string(id);
        s.start_date_ms = sim::kDefaultStartDateMs;
        s.packs = std::make_shared<const content::ResolvedPacks>(std::move(packs).value());
        s.map = s.packs->default_map();
        s.clock = sim::make_school_clock(sim::kDefaultStartDateMs);
        return s;
    }
    static store::SharedClockRow row(std::int32_t id, std::int64_t time, bool running, std::uint8_t speed, std::int64_t control_seq,
                                     bool held) {
        return {id, store::ClockState{time, running, speed, false}, control_seq, held};
    }
    const SchoolState& at(std::int32_t id) { return service.schools().at(id); }

    content::ContentLibrary library = content::ContentLibrary::scan(std::string(HSCHOOL_SOURCE_DIR) + "/mods");
    Metrics metrics;
    SchoolsService service{20, metrics, nullptr};
};

TEST_F(SchoolFollowTest, ASchoolDeletedElsewhereGoesAndItsWatchersAreTold) {
    service.add(school(1));
    service.add(school(2));
    test::TestConnection watcher(5);
    service.join({watcher.ref, v4::Locale::English, {}});
    service.open({5, 2});
    watcher.take();
    service.follow({Clock::now(), {row(1, 0, true, 1, 0, true)}, {}});
    EXPECT_EQ(service.schools().count(2), 0u);
    bool told = false;
    for (const auto& frame : watcher.take()) {
        const auto decoded = v4::decode_server(frame);
        told = told || (decoded && std::holds_alternative<v4::SchoolGone>(*decoded) && std::get<v4::SchoolGone>(*decoded).school_id == 2);
    }
    EXPECT_TRUE(told);
}

TEST_F(SchoolFollowTest, AViewReadBeforeALocalCreateDoesNotRemoveIt) {
    const auto read_before = Clock::now() - std::chrono::seconds(1);
    service.add(school(3));  // created here after the follower read the database
    service.follow({read_before, {}, {}});
    EXPECT_EQ(service.schools().count(3), 1u);
}

TEST_F(SchoolFollowTest, ASchoolCreatedElsewhereArrivesButNotOneDeletedHereAfterTheRead) {
    service.add(school(4));
    const auto read_before = Clock::now() - std::chrono::seconds(1);
    service.remove(4);  // deleted here after the follower read it
    std::vector<SchoolState> arrived;
    arrived.push_back(school(4));
    arrived.push_back(school(5));
    service.follow({read_before, {row(4, 0, true, 1, 0, false), row(5, 0, true, 1, 0, false)}, std::move(arrived)});
    EXPECT_EQ(service.schools().count(5), 1u);
    // Without a store nothing records the removal, so the stale row brings school 4 back; with a
    // shared store removed_at_ keeps it out. Either way the next fresh view decides.
    service.follow({Clock::now(), {row(5, 0, true, 1, 0, false)}, {}});
    EXPECT_EQ(service.schools().count(4), 0u);
    EXPECT_EQ(service.schools().count(5), 1u);
}

TEST_F(SchoolFollowTest, AControlMadeElsewhereIsAdoptedWithItsMomentWhenTheClockIsNotHeldHere) {
    service.add(school(6));
    const auto start = at(6).clock.game_time_ms;
    service.follow({Clock::now(), {row(6, start + 90'000, false, 3, 1, false)}, {}});
    EXPECT_FALSE(at(6).clock.running);
    EXPECT_EQ(at(6).clock.speed_index, 3);
    EXPECT_EQ(at(6).clock.game_time_ms, start + 90'000);
    EXPECT_FALSE(at(6).holds_clock);
}

TEST_F(SchoolFollowTest, TheHolderAdoptsAControlButKeepsItsOwnTime) {
    service.add(school(7));
    for (int i = 0; i < 20; ++i) service.step(50'000);
    const auto now = at(7).clock.game_time_ms;
    service.follow({Clock::now(), {row(7, now - 5'000, false, 2, 1, true)}, {}});
    EXPECT_FALSE(at(7).clock.running);
    EXPECT_EQ(at(7).clock.speed_index, 2);
    EXPECT_EQ(at(7).clock.game_time_ms, now);
    EXPECT_TRUE(at(7).holds_clock);
}

TEST_F(SchoolFollowTest, AClockHeldElsewhereCatchesUpButNeverGoesBack) {
    service.add(school(8));
    service.follow({Clock::now(), {row(8, at(8).clock.game_time_ms, true, 1, 0, false)}, {}});
    const auto here = at(8).clock.game_time_ms;
    service.follow({Clock::now(), {row(8, here + 30'000, true, 1, 0, false)}, {}});
    EXPECT_EQ(at(8).clock.game_time_ms, here + 30'000);
    service.follow({Clock::now(), {row(8, here, true, 1, 0, false)}, {}});  // an older committed tick
    EXPECT_EQ(at(8).clock.game_time_ms, here + 30'000);
}

TEST_F(SchoolFollowTest, TimePassingOnAClockHeldElsewhereIsNotWrittenHere) {
    service.add(school(9));
    service.add(school(10));
    service.follow({Clock::now(), {row(9, at(9).clock.game_time_ms, true, 1, 0, true), row(10, at(10).clock.game_time_ms, true, 1, 0, false)}, {}});
    const auto before = service.clock_updates_queued();
    service.step(50'000);
    EXPECT_EQ(service.clock_updates_queued(), before + 1);  // school 9 only
    const auto time10 = at(10).clock.game_time_ms;
    EXPECT_GT(time10, 0);  // still advanced locally, so its watchers see it move between reads
}

}  // namespace
}  // namespace hschool::server
