// Several servers on one PostgreSQL database (issue 34), as an operator runs them: two real
// servers, one database, the schools created, deleted, paused and sped up through either seen on
// the other's list and v4 watchers; a SIGKILLed clock holder taken over; faults at start-up and
// while running. Bounds here are generous (a loaded CI machine): how soon is bench/postgres.py's
// figure. Needs $HSCHOOL_TEST_DATABASE_URL (make test sets it).
#include <cstdlib>
#include <fstream>

#include <unistd.h>

#include "schools_support.hpp"
#include "store/pg/pg_connection.hpp"
#include "test_schema.hpp"

namespace hschool::test::schools {
namespace {

using namespace std::chrono_literals;

constexpr int kFramesToWait = 1200;  // a minute of clocks at 20 Hz, as kWait

std::vector<std::string> args_on(const TempDir& dir, const std::string& url) {
    auto args = isolated_server_args(dir);
    args.insert(args.end(), {"--database", url});
    return args;
}

class SharedDatabase : public ::testing::Test {
protected:
    void SetUp() override {
        if (!schema.ready()) GTEST_SKIP() << "no $HSCHOOL_TEST_DATABASE_URL";
        a = std::make_unique<ServerProcess>(args_on(dir_a, schema.url()));
        b = std::make_unique<ServerProcess>(args_on(dir_b, schema.url()));
        ASSERT_TRUE(a->started()) << a->output();
        ASSERT_TRUE(b->started()) << b->output();
    }
    // Polls `port`'s list until `pred(list)` holds, at most `within`.
    template <class Pred>
    bool listed_within(std::uint16_t port, Pred pred, std::chrono::milliseconds within = kWait) {
        const auto until = std::chrono::steady_clock::now() + within;
        do {
            if (pred(list_schools(port))) return true;
            std::this_thread::sleep_for(50ms);
        } while (std::chrono::steady_clock::now() < until);
        return false;
    }
    static bool has(const json::array& list, std::int64_t id) {
        for (const auto& s : list)
            if (s.at("id").to_number<std::int64_t>() == id) return true;
        return false;
    }

    TestSchema schema{"it"};
    TempDir dir_a, dir_b;
    std::unique_ptr<ServerProcess> a, b;
};

TEST_F(SharedDatabase, ASchoolCreatedOnOneServerIsListedAndWatchedOnTheOther) {
    const auto id = create_school_id(a->port(), "Общая");
    EXPECT_TRUE(listed_within(b->port(), [&](const json::array& list) { return has(list, id); }));
    auto watcher = join(b->port());
    ASSERT_TRUE(watcher);
    ASSERT_TRUE(open_school(*watcher, id)) << "B streams a school A created";
    expect_ticks_at_speed(next_clocks(*watcher, 10), 1);
}

TEST_F(SharedDatabase, ASchoolDeletedOnOneServerIsGoneFromTheOthersWatchers) {
    const auto id = create_school_id(a->port(), "Недолгая");
    ASSERT_TRUE(listed_within(b->port(), [&](const json::array& list) { return has(list, id); }));
    auto watcher = join(a->port());
    ASSERT_TRUE(watcher && open_school(*watcher, id));
    EXPECT_EQ(http_request(b->port(), "DELETE", "/api/schools/" + std::to_string(id)).status, 204u);
    bool gone = false;
    for (const auto until = std::chrono::steady_clock::now() + kWait; !gone && std::chrono::steady_clock::now() < until;) {
        const auto message = next_raw(*watcher);
        if (!message) break;
        if (const auto* g = std::get_if<v4::SchoolGone>(&message->message)) gone = g->school_id == id;
    }
    EXPECT_TRUE(gone) << "A's watcher was told the school is gone";
    EXPECT_TRUE(listed_within(a->port(), [&](const json::array& list) { return !has(list, id); }));
}

TEST_F(SharedDatabase, APauseAndASpeedChangeOnEitherServerReachTheOthersWatchers) {
    const auto id = create_school_id(a->port(), "Пауза");
    ASSERT_TRUE(listed_within(b->port(), [&](const json::array& list) { return has(list, id); }));
    auto on_a = join(a->port());
    auto on_b = join(b->port());
    ASSERT_TRUE(on_a && on_b && open_school(*on_a, id) && open_school(*on_b, id));

    ASSERT_TRUE(on_b->send(v4::encode(v4::SetRunning{0})));
    const auto paused = clock_where(*on_a, [](const v4::Clock& c) { return c.running == 0; }, kFramesToWait);
    ASSERT_TRUE(paused) << "A's watcher saw B's pause";
    for (const auto& clock : next_clocks(*on_a, 10)) EXPECT_EQ(clock.game_time_ms, paused->game_time_ms) << "paused";

    ASSERT_TRUE(on_a->send(v4::encode(v4::SetSpeed{4})));
    ASSERT_TRUE(on_a->send(v4::encode(v4::SetRunning{1})));
    ASSERT_TRUE(clock_where(*on_b, [](const v4::Clock& c) { return c.running == 1 && c.speed_index == 4; }, kFramesToWait))
        << "B's watcher saw A's speed and resume";
}

TEST_F(SharedDatabase, WhenTheClocksHolderIsKilledTheOtherServerTakesItOver) {
    // A alone when the school is made, so A holds its clock; then B comes back and finds it held.
    ASSERT_TRUE(b->stop(SIGTERM).has_value());
    const auto id = create_school_id(a->port(), "Наследство");
    auto db = store::pg::Connection::connect(schema.url());
    ASSERT_TRUE(db.has_value());
    const auto holder = [&] {
        auto rows = (*db)->exec("SELECT clock_holder FROM schools WHERE id = $1", {store::pg::Param::integer(id)});
        return rows && rows->size() == 1 ? rows->text(0, 0) : std::string();
    };
    // A's next renewal takes it.
    for (const auto until = std::chrono::steady_clock::now() + kWait; holder().empty() && std::chrono::steady_clock::now() < until;)
        std::this_thread::sleep_for(100ms);
    const auto a_holder = holder();
    ASSERT_FALSE(a_holder.empty());
    b = std::make_unique<ServerProcess>(args_on(dir_b, schema.url()));
    ASSERT_TRUE(b->started()) << b->output();
    ASSERT_TRUE(listed_within(b->port(), [&](const json::array& list) { return has(list, id); }));
    // The committed clock and whether a live lease covers it, on the database's own clock.
    const auto row = [&]() -> std::pair<std::int64_t, bool> {
        auto rows = (*db)->exec("SELECT game_time_ms, clock_lease_until_ms > (extract(epoch from clock_timestamp()) * 1000)::bigint "
                                "FROM schools WHERE id = $1",
                                {store::pg::Param::integer(id)});
        if (!rows || rows->size() != 1) return {0, false};
        return {rows->integer(0, 0), rows->boolean(0, 1)};
    };
    ASSERT_EQ(holder(), a_holder) << "a live holder keeps its lease";
    ASSERT_TRUE(a->stop(SIGKILL).has_value());
    const auto at_kill = row().first;
    // Whoever holds it now must be B: the lease is live again and the committed clock moves on.
    bool taken_over = false;
    for (const auto until = std::chrono::steady_clock::now() + kWait; !taken_over && std::chrono::steady_clock::now() < until;) {
        const auto [time, leased] = row();
        taken_over = leased && time > at_kill && holder() != a_holder;
        if (!taken_over) std::this_thread::sleep_for(100ms);
    }
    ASSERT_TRUE(taken_over) << "B took the school's clock over and writes it";
    // A third server loads the clock B keeps: nothing acknowledged was lost.
    auto on_b = join(b->port());
    ASSERT_TRUE(on_b && open_school(*on_b, id));
    const auto b_now = next_clocks(*on_b, 1);
    ASSERT_EQ(b_now.size(), 1u);
    EXPECT_GT(b_now[0].game_time_ms, at_kill);
    TempDir dir_c;
    ServerProcess c(args_on(dir_c, schema.url()));
    ASSERT_TRUE(c.started()) << c.output();
    auto on_c = join(c.port());
    ASSERT_TRUE(on_c && open_school(*on_c, id));
    const auto c_clock = next_clocks(*on_c, 1);
    ASSERT_EQ(c_clock.size(), 1u);
    EXPECT_GE(c_clock[0].game_time_ms, at_kill) << "no server went back past what the dead one had committed";
}

TEST(SharedDatabaseFaults, AnUnreachableDatabaseAtStartUpIsAClearExitWithoutThePassword) {
    TempDir dir;
    auto args = isolated_server_args(dir);
    args.insert(args.end(), {"--database", "postgresql://app:hunter2secret@127.0.0.1:1/hschool"});
    const auto result = run_server_to_exit(args, 20s);
    EXPECT_NE(result.exit_code, 0);
    EXPECT_NE(result.exit_code, 124) << "it exited by itself";
    EXPECT_NE(result.output.find("127.0.0.1:1"), std::string::npos) << result.output;
    EXPECT_EQ(result.output.find("hunter2secret"), std::string::npos) << "the password was printed";
}

TEST(SharedDatabaseFaults, TheEnvironmentVariableNamesTheDatabaseToo) {
    TempDir dir;
    ServerProcess::Launch launch;
    launch.env.emplace_back("HSCHOOL_DATABASE_URL", "postgresql://app:hunter2secret@127.0.0.1:1/hschool");
    ServerProcess server(isolated_server_args(dir), launch);
    EXPECT_FALSE(server.started());
    EXPECT_NE(server.output().find("127.0.0.1:1"), std::string::npos) << server.output();
    EXPECT_EQ(server.output().find("hunter2secret"), std::string::npos);
}

// A cluster of its own: restarting the shared one would disturb the tests beside this one.
TEST(SharedDatabaseFaults, LosingTheDatabaseIs503AndTheServerRecoversByItself) {
    if (!std::getenv("HSCHOOL_TEST_DATABASE_URL")) GTEST_SKIP() << "no test database";
    // Straight under /tmp: the postgres user must reach it (a test TempDir is private to root).
    const auto cluster = std::filesystem::temp_directory_path() / ("hschool-itpg-" + std::to_string(::getpid()));
    const std::string script = (ServerProcess::source_dir() / "scripts" / "pg-cluster.sh").string();
    ASSERT_EQ(std::system((script + " start " + cluster.string() + " >/dev/null").c_str()), 0);
    std::string url;
    std::ifstream(cluster / "url") >> url;
    {
        TempDir dir;
        ServerProcess server(args_on(dir, url));
        ASSERT_TRUE(server.started()) << server.output();
        const auto id = create_school_id(server.port(), "До");
        auto watcher = join(server.port());
        ASSERT_TRUE(watcher && open_school(*watcher, id));

        ASSERT_EQ(std::system((script + " halt " + cluster.string()).c_str()), 0);
        // /health says why within a few follow passes; the body never carries the password.
        HttpResult health;
        for (const auto until = std::chrono::steady_clock::now() + kWait; std::chrono::steady_clock::now() < until;) {
            health = http_request(server.port(), "GET", "/health");
            if (health.status == 503) break;
            std::this_thread::sleep_for(100ms);
        }
        EXPECT_EQ(health.status, 503u) << health.body;
        EXPECT_NE(health.body.find("store-error"), std::string::npos) << health.body;
        const auto password = url.substr(url.find("hschool:") + 8, url.find('@') - url.find("hschool:") - 8);
        EXPECT_EQ(health.body.find(password), std::string::npos) << "no password in /health";
        const auto refused = post_json(server.port(), "/api/schools", std::string(R"({"name":"Во время"})"));
        EXPECT_EQ(refused.status, 503u) << refused.body;
        EXPECT_TRUE(refused.headers.count("content-type") && refused.headers.at("content-type").starts_with("application/problem+json"));
        EXPECT_NE(refused.body.find("\"code\":\"store-unavailable\""), std::string::npos) << refused.body;
        EXPECT_FALSE(next_clocks(*watcher, 5).empty()) << "the school's watchers keep their clock";

        ASSERT_EQ(std::system((script + " restart " + cluster.string()).c_str()), 0);
        bool healthy = false;
        for (const auto until = std::chrono::steady_clock::now() + kWait; !healthy && std::chrono::steady_clock::now() < until;) {
            healthy = http_request(server.port(), "GET", "/health").status == 200;
            if (!healthy) std::this_thread::sleep_for(100ms);
        }
        EXPECT_TRUE(healthy) << "recovered without a restart";
        EXPECT_EQ(post_json(server.port(), "/api/schools", std::string(R"({"name":"После"})")).status, 201u);
        if (::testing::Test::HasFailure()) std::cerr << server.output();
    }
    std::system((script + " stop " + cluster.string()).c_str());
}

}  // namespace
}  // namespace hschool::test::schools
