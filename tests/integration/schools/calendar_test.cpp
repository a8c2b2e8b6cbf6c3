// The v4 school calendar on /ws/game: map snapshots, clocks, pause and speed, SchoolGone.
#include <map>
#include <optional>
#include <set>

#include "schools_support.hpp"

namespace hschool::test::schools {
namespace {

class SchoolsCalendar : public ServerTest<isolated_server_args> {
protected:
    std::uint16_t port() const { return server.port(); }
    std::int32_t create(const std::string& name, const json::object& extra = {}) { return create_school_id(port(), name, extra); }
    json::object school(std::int32_t id) {
        auto found = find_school(port(), id);
        if (!found) ADD_FAILURE() << "school " << id << " is not listed";
        return found.value_or(json::object{});
    }
    // A new school and a client that has it open (its snapshot read); no client when that failed.
    std::pair<std::int32_t, std::unique_ptr<WsClient>> watched_school(const std::string& name, const json::object& extra = {}) {
        const auto id = create(name, extra);
        auto client = join(port());
        if (!client || !open_school(*client, id)) {
            ADD_FAILURE() << "could not open school " << id;
            return {id, nullptr};
        }
        return {id, std::move(client)};
    }
    // The map snapshot a client of `locale` gets when it opens school `id`; nothing (and a failure) without one.
    std::optional<v4::MapSnapshot> snapshot_for(std::int32_t id, std::uint8_t locale) {
        auto client = join(port(), locale);
        const auto opened = client ? open_school(*client, id) : std::nullopt;
        if (!opened) {
            ADD_FAILURE() << "no snapshot of school " << id << " for locale " << int(locale);
            return std::nullopt;
        }
        return std::get<v4::MapSnapshot>(opened->message);
    }
};

std::uint8_t wire_kind(std::string_view kind) {
    if (kind == "territory") return 0;
    if (kind == "building") return 1;
    if (kind == "floor") return 2;
    if (kind == "room") return 3;
    ADD_FAILURE() << "unknown kind " << kind;
    return 255;
}

// The catalog types by id.
std::map<std::string, json::object> types_by_id(const json::object& catalog) {
    std::map<std::string, json::object> types;
    for (const auto& type : catalog.at("types").as_array()) types[std::string(type.at("id").as_string())] = type.as_object();
    return types;
}

// Checks a snapshot node by node against the map it was made from and the catalog labels.
void expect_snapshot_of(const v4::MapSnapshot& snapshot, const json::object& map, const json::object& catalog) {
    const auto types = types_by_id(catalog);
    const auto& nodes = map.at("nodes").as_array();
    ASSERT_EQ(snapshot.nodes.size(), nodes.size());
    std::map<std::string, json::object> map_nodes;
    for (const auto& n : nodes) map_nodes[std::string(n.at("id").as_string())] = n.as_object();
    std::set<std::string> seen;
    for (const auto& sent : snapshot.nodes) {
        SCOPED_TRACE(sent.id);
        ASSERT_TRUE(map_nodes.contains(sent.id)) << "not a node of the map";
        const auto& expected = map_nodes.at(sent.id);
        const auto* parent = expected.if_contains("parent");
        const std::string parent_id = parent && parent->is_string() ? std::string(parent->as_string()) : "";
        EXPECT_EQ(sent.parent, parent_id);
        EXPECT_TRUE(sent.parent.empty() || seen.contains(sent.parent)) << "child before its parent " << sent.parent;
        EXPECT_TRUE(seen.insert(sent.id).second) << "sent twice";
        const auto& type = types.at(std::string(expected.at("def").as_string()));
        EXPECT_EQ(sent.kind, wire_kind(type.at("kind").as_string()));
        const auto* custom = expected.if_contains("name");
        EXPECT_EQ(sent.name, custom && custom->is_string() ? custom->as_string() : type.at("label").as_string());
        const auto& items = type.at("items").as_array();
        ASSERT_EQ(sent.items.size(), items.size());
        if (!items.empty()) {
            EXPECT_TRUE(sent.items[0].starts_with(items[0].at("label").as_string())) << sent.items[0];
        }
        std::int64_t places = 0;
        for (const auto& position : type.at("positions").as_array()) places += position.at("count").as_int64();
        EXPECT_EQ(static_cast<std::int64_t>(sent.positions.size()), places);
    }
    ASSERT_FALSE(snapshot.nodes.empty());
    EXPECT_EQ(snapshot.nodes.front().kind, v4::node_kind::kTerritory) << "the yard comes first";
    EXPECT_TRUE(snapshot.nodes.front().parent.empty());
}

// ---- MapSnapshot ----

TEST_F(SchoolsCalendar, OpeningSendsOneSnapshotThenClocksOfThatSchool) {
    create("Other");
    const auto [id, client] = watched_school("Watched", {{"startDate", "1999-09-01T08:30:00Z"}});
    ASSERT_TRUE(client);
    const auto clocks = next_clocks(*client, 20);  // no second snapshot, nothing else
    ASSERT_EQ(clocks.size(), 20U);
    for (const auto& clock : clocks) {
        EXPECT_EQ(clock.school_id, id);
        EXPECT_GE(clock.game_time_ms, iso_to_ms("1999-09-01T08:30:00Z"));
        EXPECT_LT(clock.game_time_ms, iso_to_ms("1999-09-01T09:30:00Z"));
    }
    expect_ticks_at_speed(clocks, 1);
}

TEST_F(SchoolsCalendar, AnEnglishSnapshotIsTheDefaultMapInEnglishParentsFirst) {
    const auto id = create("English");
    const auto catalog = get_object(port(), "/api/catalog?lang=en");
    const auto snapshot = snapshot_for(id, 1);
    ASSERT_TRUE(snapshot);
    expect_snapshot_of(*snapshot, catalog.at("defaultMap").as_object(), catalog);
    EXPECT_EQ(snapshot->nodes.front().name, "School yard");
    for (const auto& n : snapshot->nodes) EXPECT_FALSE(has_cyrillic(n.name)) << n.name;
}

TEST_F(SchoolsCalendar, ARussianSnapshotForLocaleZeroAndAnyUnknownLocale) {
    const auto id = create("Русская");
    const auto catalog = get_object(port(), "/api/catalog?lang=ru");
    for (std::uint8_t locale : {0, 7}) {
        SCOPED_TRACE(int(locale));
        const auto snapshot = snapshot_for(id, locale);
        ASSERT_TRUE(snapshot);
        expect_snapshot_of(*snapshot, catalog.at("defaultMap").as_object(), catalog);
        for (const auto& n : snapshot->nodes) EXPECT_TRUE(has_cyrillic(n.name)) << n.name;
    }
}

TEST_F(SchoolsCalendar, ACustomMapIsSentWithItsNamesAsWritten) {
    auto map = small_map();
    map["nodes"].as_array().push_back(json::object{{"id", "room-203"}, {"def", "room.classroom.math"}, {"parent", "floor-1"}, {"name", "Кабинет 203"}});
    map["links"].as_array().push_back(link("room-a", "room-203"));
    const auto id = create("Custom", {{"map", map}});
    const auto catalog = get_object(port(), "/api/catalog?lang=en");
    const auto snapshot = snapshot_for(id, 1);
    ASSERT_TRUE(snapshot);
    expect_snapshot_of(*snapshot, map, catalog);
    ASSERT_EQ(snapshot->nodes.size(), 5U);
    EXPECT_EQ(snapshot->nodes.back().name, "Кабинет 203");
    EXPECT_EQ(snapshot->nodes.back().kind, v4::node_kind::kRoom);
}

TEST_F(SchoolsCalendar, SnapshotsOverEightKiBArriveWhole) {
    const auto annex = create("Annex", {{"modIds", json::array{"annex"}}});
    const auto big = big_map(3, 150);
    ASSERT_LT(json::serialize(big).size(), 64U * 1024) << "the test map must fit a request";
    const auto many_rooms = create("Many rooms", {{"map", big}});
    auto client = join(port(), 1);
    ASSERT_TRUE(client);
    const auto annex_snapshot = open_school(*client, annex);
    ASSERT_TRUE(annex_snapshot);
    EXPECT_GT(annex_snapshot->bytes, 8192U);
    const auto annex_catalog = get_object(port(), "/api/catalog?lang=en&mods=annex");
    expect_snapshot_of(std::get<v4::MapSnapshot>(annex_snapshot->message), annex_catalog.at("defaultMap").as_object(), annex_catalog);
    EXPECT_EQ(std::get<v4::MapSnapshot>(annex_snapshot->message).nodes.size(), 64U);

    auto other = join(port(), 1);
    ASSERT_TRUE(other);
    const auto big_snapshot = open_school(*other, many_rooms);
    ASSERT_TRUE(big_snapshot);
    EXPECT_GT(big_snapshot->bytes, 8192U);
    expect_snapshot_of(std::get<v4::MapSnapshot>(big_snapshot->message), big, get_object(port(), "/api/catalog?lang=en"));
    EXPECT_EQ(std::get<v4::MapSnapshot>(big_snapshot->message).nodes.size(), 155U);
}

TEST_F(SchoolsCalendar, OpeningAgainSendsTheSnapshotAgain) {
    const auto [id, client] = watched_school("Twice");
    ASSERT_TRUE(client);
    next_clocks(*client, 3);
    ASSERT_TRUE(client->send(v4::encode(v4::CloseSchool{})));
    ASSERT_TRUE(until_pong(*client, 1));
    // Clocks of the first visit may still be in flight; the next snapshot must come all the same.
    ASSERT_TRUE(client->send(v4::encode(v4::OpenSchool{id})));
    auto snapshot = next_v4_of<v4::MapSnapshot>(*client, 50);
    ASSERT_TRUE(snapshot);
    EXPECT_EQ(snapshot->school_id, id);
    EXPECT_EQ(snapshot->nodes.size(), 46U);
}

// ---- Clock ----

TEST_F(SchoolsCalendar, SpeedChangesTheGameTimeOfEachTick) {
    const auto [id, client] = watched_school("Speeds");
    ASSERT_TRUE(client);
    expect_ticks_at_speed(next_clocks(*client, 10), 1);
    for (std::uint8_t speed : {4, 0, 2, 3, 1}) {
        SCOPED_TRACE(int(speed));
        ASSERT_TRUE(client->send(v4::encode(v4::SetSpeed{speed})));
        ASSERT_TRUE(clock_where(*client, [&](const v4::Clock& c) { return c.speed_index == speed; }));
        expect_ticks_at_speed(next_clocks(*client, 12), speed);
    }
    EXPECT_EQ(school(id).at("speedIndex"), json::value(1));
}

TEST_F(SchoolsCalendar, OutOfRangeSpeedsAreIgnored) {
    const auto [id, client] = watched_school("Ignored");
    ASSERT_TRUE(client);
    ASSERT_TRUE(client->send(v4::encode(v4::SetSpeed{2})));
    ASSERT_TRUE(clock_where(*client, [](const v4::Clock& c) { return c.speed_index == 2; }));
    for (std::uint8_t speed : {5, 9, 255}) ASSERT_TRUE(client->send(v4::encode(v4::SetSpeed{speed})));
    const auto before_pong = until_pong(*client, 42);  // still connected
    ASSERT_TRUE(before_pong);
    for (const auto& message : *before_pong) {
        if (const auto* clock = std::get_if<v4::Clock>(&message)) {
            EXPECT_EQ(clock->speed_index, 2);
        }
    }
    expect_ticks_at_speed(next_clocks(*client, 8), 2);
    EXPECT_EQ(school(id).at("speedIndex"), json::value(2));
}

TEST_F(SchoolsCalendar, PauseFreezesTheGameTimeAndPlayResumesIt) {
    const auto [id, client] = watched_school("Pause");
    ASSERT_TRUE(client);
    ASSERT_TRUE(client->send(v4::encode(v4::SetRunning{0})));
    const auto paused = clock_where(*client, [](const v4::Clock& c) { return c.running == 0; });
    ASSERT_TRUE(paused);
    for (const auto& clock : next_clocks(*client, 10)) {
        EXPECT_EQ(clock.running, 0);
        EXPECT_EQ(clock.game_time_ms, paused->game_time_ms) << "a paused clock moved";
        EXPECT_EQ(clock.speed_index, 1);
    }
    const auto listed = school(id);
    EXPECT_EQ(listed.at("running"), json::value(false));
    EXPECT_EQ(listed.at("gameTime"), json::value(ms_to_iso(paused->game_time_ms)));

    ASSERT_TRUE(client->send(v4::encode(v4::SetRunning{1})));
    const auto resumed = clock_where(*client, [](const v4::Clock& c) { return c.running == 1; });
    ASSERT_TRUE(resumed);
    EXPECT_GE(resumed->game_time_ms, paused->game_time_ms);
    expect_ticks_at_speed(next_clocks(*client, 10), 1);
    EXPECT_EQ(school(id).at("running"), json::value(true));
}

TEST_F(SchoolsCalendar, SpeedCanChangeWhilePaused) {
    const auto [id, client] = watched_school("Paused speed");
    ASSERT_TRUE(client);
    ASSERT_TRUE(client->send(v4::encode(v4::SetRunning{0})));
    ASSERT_TRUE(client->send(v4::encode(v4::SetSpeed{4})));
    const auto paused = clock_where(*client, [](const v4::Clock& c) { return c.running == 0 && c.speed_index == 4; });
    ASSERT_TRUE(paused);
    for (const auto& clock : next_clocks(*client, 5)) EXPECT_EQ(clock.game_time_ms, paused->game_time_ms);
    ASSERT_TRUE(client->send(v4::encode(v4::SetRunning{1})));  // play keeps the speed picked while paused
    ASSERT_TRUE(clock_where(*client, [](const v4::Clock& c) { return c.running == 1; }));
    expect_ticks_at_speed(next_clocks(*client, 10), 4);
}

TEST_F(SchoolsCalendar, ControlsWithNoSchoolOpenAreIgnored) {
    const auto id = create("Untouched");
    auto client = join(port());
    ASSERT_TRUE(client);
    ASSERT_TRUE(client->send(v4::encode(v4::SetRunning{0})));
    ASSERT_TRUE(client->send(v4::encode(v4::SetSpeed{4})));
    ASSERT_TRUE(until_pong(*client, 1));
    // After leaving a school the controls no longer reach it either.
    ASSERT_TRUE(open_school(*client, id));
    ASSERT_TRUE(client->send(v4::encode(v4::CloseSchool{})));
    ASSERT_TRUE(client->send(v4::encode(v4::SetRunning{0})));
    ASSERT_TRUE(client->send(v4::encode(v4::SetSpeed{3})));
    ASSERT_TRUE(until_pong(*client, 2));
    const auto listed = school(id);
    EXPECT_EQ(listed.at("running"), json::value(true));
    EXPECT_EQ(listed.at("speedIndex"), json::value(1));
    auto viewer = join(port());
    ASSERT_TRUE(viewer);
    ASSERT_TRUE(open_school(*viewer, id));
    expect_ticks_at_speed(next_clocks(*viewer, 10), 1);
}

TEST_F(SchoolsCalendar, CloseSchoolStopsTheClocksButNotTheSchool) {
    const auto [id, client] = watched_school("Closed");
    ASSERT_TRUE(client);
    const auto last = next_clocks(*client, 3);
    ASSERT_EQ(last.size(), 3U);
    ASSERT_TRUE(client->send(v4::encode(v4::CloseSchool{})));
    expect_no_more_clocks(*client);
    // Leaving is not pausing: the school keeps running.
    const auto listed = school(id);
    EXPECT_EQ(listed.at("running"), json::value(true));
    EXPECT_GT(iso_to_ms(listed.at("gameTime").as_string()), last.back().game_time_ms);
}

TEST_F(SchoolsCalendar, OnlyConnectionsWithASchoolOpenGetClocks) {
    const auto id = create("Busy");
    auto watcher = join(port());
    auto idle = join(port());
    ASSERT_TRUE(watcher && idle);
    ASSERT_TRUE(open_school(*watcher, id));
    ASSERT_EQ(next_clocks(*watcher, 5).size(), 5U);  // clocks are flowing
    // Six ticks of the server, each one a Clock for the watcher and none for the idle connection.
    const auto idle_frames = over_ticks(*idle, 6);
    ASSERT_TRUE(idle_frames);
    EXPECT_TRUE(idle_frames->empty()) << idle_frames->size() << " frames to a connection without a school";
}

TEST_F(SchoolsCalendar, OpeningAnUnknownOrDeletedSchoolIsSchoolGone) {
    const auto id = create("Short-lived");
    ASSERT_EQ(http_request(port(), "DELETE", "/api/schools/" + std::to_string(id)).status, 204U);
    auto client = join(port());
    ASSERT_TRUE(client);
    for (std::int32_t unknown : {id, 424242, 0, -1}) {
        ASSERT_TRUE(client->send(v4::encode(v4::OpenSchool{unknown})));
        const auto first = next_raw(*client);
        ASSERT_TRUE(first);
        ASSERT_TRUE(std::holds_alternative<v4::SchoolGone>(first->message)) << "id " << unknown;
        EXPECT_EQ(std::get<v4::SchoolGone>(first->message).school_id, unknown);
    }
    expect_no_more_clocks(*client);
}

TEST_F(SchoolsCalendar, DeletingAWatchedSchoolTellsItsWatchersOnly) {
    const auto doomed = create("Doomed");
    const auto survivor = create("Survivor");
    auto doomed_watcher = join(port());
    auto survivor_watcher = join(port());
    ASSERT_TRUE(doomed_watcher && survivor_watcher);
    ASSERT_TRUE(open_school(*doomed_watcher, doomed));
    ASSERT_TRUE(open_school(*survivor_watcher, survivor));
    ASSERT_EQ(http_request(port(), "DELETE", "/api/schools/" + std::to_string(doomed)).status, 204U);

    const auto gone = next_v4_of<v4::SchoolGone>(*doomed_watcher, 100);
    ASSERT_TRUE(gone);
    EXPECT_EQ(gone->school_id, doomed);
    expect_no_more_clocks(*doomed_watcher);

    const auto before_pong = until_pong(*survivor_watcher, 3);
    ASSERT_TRUE(before_pong);
    for (const auto& message : *before_pong) {
        EXPECT_FALSE(std::holds_alternative<v4::SchoolGone>(message)) << "the other school's watcher was told";
    }
    const auto clocks = next_clocks(*survivor_watcher, 10);
    for (const auto& clock : clocks) EXPECT_EQ(clock.school_id, survivor);
    expect_ticks_at_speed(clocks, 1);
}

TEST_F(SchoolsCalendar, TwoWatchersShareOneClock) {
    const auto id = create("Shared");
    auto first = join(port());
    auto second = join(port(), 1);
    ASSERT_TRUE(first && second);
    ASSERT_TRUE(open_school(*first, id));
    ASSERT_TRUE(open_school(*second, id));
    // Both get the same ticks: their clock streams overlap.
    const auto a = next_clocks(*first, 20);
    const auto b = next_clocks(*second, 20);
    std::set<std::int64_t> times_a;
    for (const auto& clock : a) times_a.insert(clock.game_time_ms);
    EXPECT_TRUE(std::any_of(b.begin(), b.end(), [&](const v4::Clock& c) { return times_a.contains(c.game_time_ms); }))
        << "two watchers of one school see different clocks";

    ASSERT_TRUE(first->send(v4::encode(v4::SetRunning{0})));
    const auto paused_a = clock_where(*first, [](const v4::Clock& c) { return c.running == 0; });
    const auto paused_b = clock_where(*second, [](const v4::Clock& c) { return c.running == 0; });
    ASSERT_TRUE(paused_a && paused_b);
    EXPECT_EQ(paused_a->game_time_ms, paused_b->game_time_ms);

    ASSERT_TRUE(second->send(v4::encode(v4::SetSpeed{4})));
    ASSERT_TRUE(second->send(v4::encode(v4::SetRunning{1})));
    ASSERT_TRUE(clock_where(*first, [](const v4::Clock& c) { return c.running == 1 && c.speed_index == 4; }));
    expect_ticks_at_speed(next_clocks(*first, 8), 4);
}

TEST_F(SchoolsCalendar, PauseAndSpeedSurviveLeavingAndReconnecting) {
    const auto id = create("Remembered");
    std::int64_t paused_at = 0;
    {
        auto client = join(port());
        ASSERT_TRUE(client);
        ASSERT_TRUE(open_school(*client, id));
        ASSERT_TRUE(client->send(v4::encode(v4::SetRunning{0})));
        ASSERT_TRUE(client->send(v4::encode(v4::SetSpeed{3})));
        const auto paused = clock_where(*client, [](const v4::Clock& c) { return c.running == 0 && c.speed_index == 3; });
        ASSERT_TRUE(paused);
        paused_at = paused->game_time_ms;
        ASSERT_TRUE(client->send(v4::encode(v4::CloseSchool{})));
        ASSERT_TRUE(until_pong(*client, 1));
        ASSERT_TRUE(client->send(v4::encode(v4::OpenSchool{id})));
        ASSERT_TRUE(next_v4_of<v4::MapSnapshot>(*client, 50));
        const auto back = next_clocks(*client, 3);
        for (const auto& clock : back) EXPECT_EQ(clock, (v4::Clock{id, paused_at, 0, 3}));
    }  // disconnects
    auto again = join(port());
    ASSERT_TRUE(again);
    ASSERT_TRUE(open_school(*again, id));
    for (const auto& clock : next_clocks(*again, 3)) EXPECT_EQ(clock, (v4::Clock{id, paused_at, 0, 3}));
    const auto listed = school(id);
    EXPECT_EQ(listed.at("running"), json::value(false));
    EXPECT_EQ(listed.at("speedIndex"), json::value(3));
    EXPECT_EQ(listed.at("gameTime"), json::value(ms_to_iso(paused_at)));
}

TEST(SchoolsTickRate, AnotherTickRateKeepsFiveGameMinutesPerRealSecond) {
    TempDir dir;
    auto args = isolated_server_args(dir);
    args.insert(args.end(), {"--tick-rate", "10"});
    ServerProcess server(args);
    ASSERT_TRUE(server.started()) << server.output();
    const auto id = create_school_id(server.port(), "Ten hertz");
    auto client = join(server.port(), 0, 10);
    ASSERT_TRUE(client);
    ASSERT_TRUE(open_school(*client, id));
    expect_ticks_at_speed(next_clocks(*client, 8), 1, 10);  // 30000 game ms per 100 ms tick
    ASSERT_TRUE(client->send(v4::encode(v4::SetSpeed{0})));
    ASSERT_TRUE(clock_where(*client, [](const v4::Clock& c) { return c.speed_index == 0; }));
    expect_ticks_at_speed(next_clocks(*client, 8), 0, 10);
}

}  // namespace
}  // namespace hschool::test::schools
