// The schools on the loop thread, without sockets: calendars, watchers and the frames they get.
#include <gtest/gtest.h>

#include "content/library.hpp"
#include "outbox_reader.hpp"
#include "server/metrics.hpp"
#include "server/schools/schools_service.hpp"

namespace hschool::server {
namespace {

namespace v4 = protocol::v4;
using test::TestConnection;

constexpr std::int64_t kTickUs = 50'000;  // one step at 20 Hz

class SchoolsServiceTest : public ::testing::Test {
protected:
    void SetUp() override {
        auto packs = library.resolve({});
        ASSERT_TRUE(packs) << packs.error().detail;
        SchoolState school;
        school.id = 7;
        school.name = "Гимназия №14";
        school.start_date_ms = sim::kDefaultStartDateMs;
        school.packs = std::make_shared<const content::ResolvedPacks>(std::move(packs).value());
        school.map = school.packs->default_map();
        school.mod_ids = school.packs->mod_ids();
        school.clock = sim::make_school_clock(sim::kDefaultStartDateMs);
        service.add(std::move(school));
    }
    void join(TestConnection& c, v4::Locale locale = v4::Locale::Russian, SchoolRights rights = {}) {
        service.join({c.ref, locale, std::move(rights)});
        const auto frames = c.take();
        ASSERT_EQ(frames.size(), 1U);
        EXPECT_EQ(std::get<v4::Welcome>(*v4::decode_server(frames[0])), (v4::Welcome{4, 20, 6}));
    }
    // The Clock frames a connection got this tick.
    static std::vector<v4::Clock> clocks(TestConnection& c) {
        std::vector<v4::Clock> out;
        for (const auto& frame : c.take()) {
            auto decoded = v4::decode_server(frame);
            if (decoded && std::holds_alternative<v4::Clock>(*decoded)) out.push_back(std::get<v4::Clock>(*decoded));
        }
        return out;
    }
    void tick() {
        service.step(kTickUs);
        service.broadcast();
    }

    content::ContentLibrary library = content::ContentLibrary::scan(std::string(HSCHOOL_SOURCE_DIR) + "/mods");
    Metrics metrics;
    SchoolsService service{20, metrics, nullptr};
};

TEST_F(SchoolsServiceTest, OpeningSendsOneMapSnapshotInTheHelloLocaleThenClocks) {
    TestConnection english(1), russian(2);
    join(english, v4::Locale::English);
    join(russian, v4::Locale::Russian);
    service.open({1, 7});
    service.open({2, 7});
    const auto en_frames = english.take();
    const auto ru_frames = russian.take();
    ASSERT_EQ(en_frames.size(), 1U);
    ASSERT_EQ(ru_frames.size(), 1U);
    const auto en = std::get<v4::MapSnapshot>(*v4::decode_server(en_frames[0]));
    const auto ru = std::get<v4::MapSnapshot>(*v4::decode_server(ru_frames[0]));
    EXPECT_EQ(en.school_id, 7);
    EXPECT_EQ(en.nodes.size(), service.schools().at(7).map.nodes.size());
    EXPECT_EQ(en.nodes.front().kind, v4::node_kind::kTerritory);
    EXPECT_TRUE(en.nodes.front().parent.empty());
    EXPECT_NE(en.nodes.front().name, ru.nodes.front().name);  // labels follow the locale
    tick();
    EXPECT_EQ(clocks(english).size(), 1U);
}

TEST_F(SchoolsServiceTest, ClocksAdvanceFiveGameMinutesPerRealSecondTimesSpeed) {
    TestConnection c(1);
    join(c);
    service.open({1, 7});
    c.take();
    const std::int64_t start = service.schools().at(7).clock.game_time_ms;
    tick();
    auto got = clocks(c);
    ASSERT_EQ(got.size(), 1U);
    EXPECT_EQ(got[0].game_time_ms - start, 15'000);  // ×1: 300 game ms per real ms
    EXPECT_EQ(got[0].running, 1);
    EXPECT_EQ(got[0].speed_index, 1);
    const std::pair<std::uint8_t, std::int64_t> speeds[] = {{0, 7'500}, {2, 30'000}, {3, 45'000}, {4, 60'000}};
    for (const auto& [speed, per_tick] : speeds) {
        service.set_speed({1, speed});
        const auto before = service.schools().at(7).clock.game_time_ms;
        tick();
        got = clocks(c);
        ASSERT_EQ(got.size(), 1U);
        EXPECT_EQ(got[0].speed_index, speed);
        EXPECT_EQ(got[0].game_time_ms - before, per_tick) << "speed " << int(speed);
    }
}

TEST_F(SchoolsServiceTest, PausedClocksStandStillAndOutOfRangeValuesAreIgnored) {
    TestConnection c(1);
    join(c);
    service.open({1, 7});
    c.take();
    service.set_running({1, 0});
    const auto paused_at = service.schools().at(7).clock.game_time_ms;
    tick();
    tick();
    auto got = clocks(c);
    ASSERT_EQ(got.size(), 2U);
    EXPECT_EQ(got[1].game_time_ms, paused_at);
    EXPECT_EQ(got[1].running, 0);
    service.set_running({1, 7});  // not 0 or 1
    service.set_speed({1, 5});    // past ×4
    tick();
    got = clocks(c);
    EXPECT_EQ(got.at(0).running, 0);
    EXPECT_EQ(got.at(0).speed_index, 1);
}

// Owners mode: a connection changes the clock of a school only with its owner's token (or the
// operator's); anyone else's SetRunning and SetSpeed change nothing, for nobody.
TEST_F(SchoolsServiceTest, InOwnersModeOnlyTheOwnersSessionsChangeTheClock) {
    SchoolState owned = service.schools().at(7);
    owned.id = 8;
    owned.owner_hash = std::string(64, 'e');
    service.add(std::move(owned));
    TestConnection stranger(1), owner(2), op(3);
    join(stranger, v4::Locale::Russian, SchoolRights{false, {std::string(64, 'f')}});
    join(owner, v4::Locale::Russian, SchoolRights{false, {std::string(64, 'e')}});
    join(op, v4::Locale::Russian, SchoolRights{true, {}});
    for (net::ConnectionId c : {1, 2, 3}) service.open({c, 8});
    service.set_running({1, 0});
    service.set_speed({1, 4});
    EXPECT_TRUE(service.schools().at(8).clock.running);
    EXPECT_EQ(service.schools().at(8).clock.speed_index, 1);
    service.set_speed({2, 3});
    EXPECT_EQ(service.schools().at(8).clock.speed_index, 3);
    service.set_running({3, 0});
    EXPECT_FALSE(service.schools().at(8).clock.running);
    // School 7 has no owner: the operator's alone.
    service.open({2, 7});
    service.set_running({2, 0});
    EXPECT_TRUE(service.schools().at(7).clock.running);
    EXPECT_NE(metrics.render().find("hschool_school_controls_refused_total 3"), std::string::npos) << metrics.render();
}

TEST_F(SchoolsServiceTest, ControlsThatChangeNothingQueueNothingForTheStore) {
    TestConnection c(1);
    join(c);
    service.open({1, 7});
    c.take();
    const auto before = service.clock_updates_queued();
    for (int i = 0; i < 1000; ++i) {
        service.set_running({1, 1});  // already running
        service.set_speed({1, 1});    // already ×1
    }
    EXPECT_EQ(service.clock_updates_queued(), before);
    service.set_running({1, 0});
    service.set_running({1, 0});
    service.set_speed({1, 3});
    service.set_speed({1, 3});
    EXPECT_EQ(service.clock_updates_queued(), before + 2);  // one per real change
    EXPECT_FALSE(service.schools().at(7).clock.running);
    EXPECT_EQ(service.schools().at(7).clock.speed_index, 3);
}

TEST_F(SchoolsServiceTest, ControlsWithNoSchoolOpenAreIgnored) {
    TestConnection c(1);
    join(c);
    service.set_running({1, 0});
    service.set_speed({1, 4});
    EXPECT_TRUE(service.schools().at(7).clock.running);
    EXPECT_EQ(service.schools().at(7).clock.speed_index, 1);
}

TEST_F(SchoolsServiceTest, ClocksGoOnlyToWatchersAndStopOnClose) {
    TestConnection watcher(1), idle(2);
    join(watcher);
    join(idle);
    service.open({1, 7});
    watcher.take();
    tick();
    EXPECT_EQ(clocks(watcher).size(), 1U);
    EXPECT_TRUE(idle.take().empty());
    service.close({1});
    tick();
    EXPECT_TRUE(watcher.take().empty());
}

TEST_F(SchoolsServiceTest, OneClockBufferIsSharedByEveryWatcherOfASchool) {
    TestConnection a(1), b(2);
    join(a);
    join(b);
    service.open({1, 7});
    service.open({2, 7});
    a.take();
    b.take();
    tick();
    const auto fa = a.ref.outbox->next().frame;
    const auto fb = b.ref.outbox->next().frame;
    ASSERT_TRUE(fa && fb);
    EXPECT_EQ(fa.get(), fb.get());
}

TEST_F(SchoolsServiceTest, UnknownOrDeletedSchoolsSendSchoolGone) {
    TestConnection c(1);
    join(c);
    service.open({1, 99});
    auto frames = c.take();
    ASSERT_EQ(frames.size(), 1U);
    EXPECT_EQ(std::get<v4::SchoolGone>(*v4::decode_server(frames[0])).school_id, 99);
    service.open({1, 7});
    c.take();
    EXPECT_TRUE(service.remove(7));
    frames = c.take();
    ASSERT_EQ(frames.size(), 1U);
    EXPECT_EQ(std::get<v4::SchoolGone>(*v4::decode_server(frames[0])).school_id, 7);
    tick();
    EXPECT_TRUE(c.take().empty());
    EXPECT_FALSE(service.remove(7));
}

}  // namespace
}  // namespace hschool::server
