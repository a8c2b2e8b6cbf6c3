// Schools outlive the process: clean restarts lose nothing, a crash loses at most a second.
// Also start-up with a bad --data path, a broken content pack, and hostile request bodies.
#include <signal.h>

#include <fstream>
#include <random>

#include "schools_support.hpp"

namespace hschool::test::schools {
namespace {

// Pauses (or not) and sets the speed over the WebSocket; the clock that first shows it.
std::optional<v4::Clock> set_clock(std::uint16_t port, std::int32_t id, bool running, std::uint8_t speed) {
    auto client = join(port);
    if (!client || !open_school(*client, id)) return std::nullopt;
    EXPECT_TRUE(client->send(v4::encode(v4::SetRunning{static_cast<std::uint8_t>(running)})));
    EXPECT_TRUE(client->send(v4::encode(v4::SetSpeed{speed})));
    return clock_where(*client, [&](const v4::Clock& c) { return c.running == running && c.speed_index == speed; });
}

// The first Clock a new watcher of `id` gets.
std::optional<v4::Clock> first_clock(std::uint16_t port, std::int32_t id) {
    auto client = join(port);
    if (!client || !open_school(*client, id)) return std::nullopt;
    const auto clocks = next_clocks(*client, 1);
    if (clocks.empty()) return std::nullopt;
    return clocks.front();
}

TEST(SchoolsPersistence, ACleanRestartKeepsPauseSpeedAndTheExactTime) {
    TempDir dir;
    const auto args = isolated_server_args(dir);
    std::int32_t paused_id = 0;
    std::int32_t running_id = 0;
    std::int64_t paused_at = 0;
    json::object listed_before;
    {
        ServerProcess server(args);
        ASSERT_TRUE(server.started()) << server.output();
        paused_id = create_school_id(server.port(), "Гимназия №14", {{"startDate", "1999-09-01T08:30:00Z"}, {"modIds", json::array{"annex"}}});
        running_id = create_school_id(server.port(), "Northern Academy");
        const auto paused = set_clock(server.port(), paused_id, false, 3);
        ASSERT_TRUE(paused);
        paused_at = paused->game_time_ms;
        listed_before = find_school(server.port(), paused_id).value_or(json::object{});
        EXPECT_EQ(server.stop(SIGTERM), std::optional<int>(0)) << server.output();
    }
    ServerProcess restarted(args);
    ASSERT_TRUE(restarted.started()) << restarted.output();
    const auto listed = find_school(restarted.port(), paused_id);
    ASSERT_TRUE(listed) << "the school is gone after a clean restart";
    EXPECT_EQ(*listed, listed_before) << "the listing changed across a restart";
    EXPECT_EQ(listed->at("name"), json::value("Гимназия №14"));
    EXPECT_EQ(listed->at("running"), json::value(false));
    EXPECT_EQ(listed->at("speedIndex"), json::value(3));
    EXPECT_EQ(listed->at("gameTime"), json::value(ms_to_iso(paused_at)));
    const auto clock = first_clock(restarted.port(), paused_id);
    ASSERT_TRUE(clock);
    EXPECT_EQ(*clock, (v4::Clock{paused_id, paused_at, 0, 3})) << "a clean shutdown lost game time";
    // The school kept its packs: its snapshot is still the annex map.
    auto client = join(restarted.port());
    ASSERT_TRUE(client);
    const auto snapshot = open_school(*client, paused_id);
    ASSERT_TRUE(snapshot);
    EXPECT_EQ(std::get<v4::MapSnapshot>(snapshot->message).nodes.size(), 64U);
    // The other school still runs, and a new one gets a fresh id.
    const auto other = find_school(restarted.port(), running_id);
    ASSERT_TRUE(other);
    EXPECT_EQ(other->at("running"), json::value(true));
    const auto next_id = create_school_id(restarted.port(), "After restart");
    EXPECT_GT(next_id, running_id);
}

TEST(SchoolsPersistence, DeletedSchoolsStayDeletedAfterARestart) {
    TempDir dir;
    const auto args = isolated_server_args(dir);
    std::int32_t deleted = 0;
    {
        ServerProcess server(args);
        ASSERT_TRUE(server.started()) << server.output();
        deleted = create_school_id(server.port(), "Gone");
        create_school_id(server.port(), "Kept");
        ASSERT_EQ(http_request(server.port(), "DELETE", "/api/schools/" + std::to_string(deleted)).status, 204U);
        ASSERT_EQ(server.stop(SIGKILL), std::optional<int>(128 + SIGKILL));  // the delete was committed before 204
    }
    ServerProcess restarted(args);
    ASSERT_TRUE(restarted.started()) << restarted.output();
    const auto schools = list_schools(restarted.port());
    ASSERT_EQ(schools.size(), 1U);
    EXPECT_EQ(schools[0].at("name"), json::value("Kept"));
    EXPECT_FALSE(find_school(restarted.port(), deleted));
}

// The school runs until its clock is two real seconds' worth past where it started (read over
// REST, however long that takes), so a server that never wrote its clock would lose more than the
// one second the test allows.
TEST(SchoolsPersistence, ACrashLosesAtMostOneRealSecondOfGameTime) {
    constexpr std::int64_t kOneRealSecondAtX4 = 20 * 60 * 1000;
    TempDir dir;
    const auto args = isolated_server_args(dir);
    std::int32_t id = 0;
    std::int64_t last_seen = 0;
    {
        ServerProcess server(args);
        ASSERT_TRUE(server.started()) << server.output();
        id = create_school_id(server.port(), "Crash");
        const auto game_time = [&] { return iso_to_ms(find_school(server.port(), id).value().at("gameTime").as_string()); };
        const auto started_at = game_time();
        ASSERT_TRUE(set_clock(server.port(), id, true, 4));
        last_seen = game_time();
        for (const auto until = std::chrono::steady_clock::now() + kWait;
             last_seen < started_at + 2 * kOneRealSecondAtX4 && std::chrono::steady_clock::now() < until;) {
            std::this_thread::sleep_for(100ms);
            last_seen = game_time();
        }
        ASSERT_GE(last_seen, started_at + 2 * kOneRealSecondAtX4) << "the school's clock did not run";
        ASSERT_EQ(server.stop(SIGKILL), std::optional<int>(128 + SIGKILL));
    }
    ServerProcess restarted(args);
    ASSERT_TRUE(restarted.started()) << restarted.output();
    const auto school = find_school(restarted.port(), id);
    ASSERT_TRUE(school) << "a school created before the crash is gone";
    const auto recovered = iso_to_ms(school->at("gameTime").as_string());
    EXPECT_GE(recovered, last_seen - kOneRealSecondAtX4) << "recovered " << ms_to_iso(recovered) << ", last seen "
                                                          << ms_to_iso(last_seen);
    EXPECT_EQ(school->at("speedIndex"), json::value(4));
    EXPECT_EQ(school->at("running"), json::value(true));
}

TEST(SchoolsStartup, AnUnusableDataPathIsAFailedStartNotACrash) {
    TempDir dir;
    std::filesystem::create_directories(dir.path() / "a-directory");
    std::ofstream(dir.path() / "regular-file") << "not a directory";
    const auto mods = ServerProcess::source_dir() / "mods";
    for (const auto& data : {dir.path() / "a-directory", dir.path() / "regular-file" / "hschool.db",
                             dir.path() / "missing-dir" / "hschool.db"}) {
        SCOPED_TRACE(data.string());
        const auto result = run_server_to_exit(server_args(data, mods));
        EXPECT_NE(result.exit_code, 0) << result.output;
        EXPECT_NE(result.exit_code, 124) << "the server kept running: " << result.output;
        EXPECT_LT(result.exit_code, 128) << "killed by a signal: " << result.output;
        EXPECT_NE(result.output.find("event=startup_failed"), std::string::npos) << result.output;
        ServerProcess server(server_args(data, mods));
        EXPECT_FALSE(server.started());
        EXPECT_NE(server.output().find("event=startup_failed"), std::string::npos) << server.output();
    }
}

// A mods folder with the shipped core and a pack whose defs file is not valid JSON.
std::filesystem::path mods_with_broken_pack(const TempDir& dir) {
    const auto mods = dir.path() / "mods";
    std::filesystem::create_directories(mods);
    std::filesystem::copy(ServerProcess::source_dir() / "mods" / "core", mods / "core", std::filesystem::copy_options::recursive);
    const auto broken = mods / "broken";
    std::filesystem::create_directories(broken / "defs");
    std::filesystem::create_directories(broken / "lang");
    std::ofstream(broken / "pack.jsonc") << R"({"id": "broken", "required": false, "title": {"ru": "Сломанный", "en": "Broken"}})";
    std::ofstream(broken / "lang" / "ru.jsonc") << "{}";
    std::ofstream(broken / "lang" / "en.jsonc") << "{}";
    std::ofstream(broken / "defs" / "rooms.jsonc") << "{\n  \"defs\": [\n    { \"id\": \"room.x\", \"parent\": \"room.base\" \n  ]\n";
    return mods;
}

TEST(SchoolsStartup, ABrokenPackIsListedButCannotBeSelected) {
    TempDir dir;
    const auto mods = mods_with_broken_pack(dir);
    ServerProcess server(server_args(dir.path() / "hschool.db", mods));
    ASSERT_TRUE(server.started()) << "a broken optional pack must not stop the server: " << server.output();

    const auto listed = get_object(server.port(), "/api/mods");
    const auto& list = listed.at("mods").as_array();
    ASSERT_EQ(list.size(), 2U) << json::serialize(listed);
    EXPECT_EQ(list[0].at("id"), json::value("core"));
    EXPECT_EQ(list[1].at("id"), json::value("broken"));

    const auto catalog = http_request(server.port(), "GET", "/api/catalog?lang=en&mods=broken");
    expect_problem(catalog, 400, "invalid-catalog");
    EXPECT_NE(problem_detail(catalog).find("broken/defs/rooms.jsonc"), std::string::npos) << problem_detail(catalog);

    const auto create = post_json(server.port(), "/api/schools", json::object{{"name", "Broken"}, {"modIds", json::array{"broken"}}});
    expect_problem(create, 400, "invalid-catalog");
    EXPECT_NE(problem_detail(create).find("broken/defs/rooms.jsonc"), std::string::npos) << problem_detail(create);

    // The vanilla selection is unaffected.
    EXPECT_FALSE(get_object(server.port(), "/api/catalog?lang=en").empty());
    create_school_id(server.port(), "Vanilla");
    EXPECT_EQ(list_schools(server.port()).size(), 1U);
}

TEST(SchoolsHostile, RandomBodiesAreAlwaysAClientProblem) {
    TempDir dir;
    ServerProcess server(isolated_server_args(dir));
    ASSERT_TRUE(server.started()) << server.output();
    std::mt19937 random(20120403);
    const std::string valid = json::serialize(json::object{{"name", "Гимназия"}, {"startDate", kDefaultStartDate}, {"modIds", json::array{"annex"}}, {"map", small_map()}});
    for (int i = 0; i < 100; ++i) {
        std::string body;
        if (i % 4 == 3) {
            body = valid.substr(0, random() % valid.size());  // a cut-off valid body is never valid JSON
        } else {
            body.resize(random() % 2048);
            for (auto& c : body) c = static_cast<char>(random() % 256);
        }
        const auto response = post_json(server.port(), "/api/schools", body);
        ASSERT_NE(response.status, 0U) << "no answer to garbage " << i << "; the server may have crashed\n" << server.output();
        expect_client_problem(response, "garbage " + std::to_string(i));
    }
    const auto health = http_request(server.port(), "GET", "/health");
    EXPECT_EQ(health.status, 200U);
    EXPECT_TRUE(list_schools(server.port()).empty());
}

}  // namespace
}  // namespace hschool::test::schools
