// Matches against the real server (spec §6 items 13–15, 20 and the issue's match REST): creating,
// listing, the cap, deleting, live speed keys, saved replays that re-verify, /replay with seek,
// archives that survive a restart, and two matches that leave each other and the arena alone.
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "hns_client.hpp"
#include "sim/hns/replay.hpp"
#include "sim/hns/verify.hpp"

namespace hschool::test::hns {
namespace {

using Clock = std::chrono::steady_clock;

class HnsMatches : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_TRUE(server->started()) << server->output(); }
    TempDir dir;
    std::unique_ptr<ServerProcess> server = std::make_unique<ServerProcess>(hns_server_args(dir, {"--hns-max-matches", "3"}));
};

TEST_F(HnsMatches, TheDefaultMatchRunsAndMatchesAreCreatedListedAndCapped) {
    auto list = parse(http_request(server->port(), "GET", "/api/hns/matches").body).as_object().at("matches").as_array();
    ASSERT_EQ(list.size(), 1U);
    EXPECT_EQ(list[0].as_object().at("default"), true);
    EXPECT_EQ(list[0].as_object().at("seats").as_array().size(), 6U);

    HttpResult failure;
    EXPECT_EQ(create_match(server->port(), R"({"variant":"nope"})", &failure), "");
    EXPECT_EQ(failure.status, 400U);
    EXPECT_NE(failure.body.find("variant"), std::string::npos);
    EXPECT_EQ(create_match(server->port(), R"({"config":{"crates":"many"}})", &failure), "");
    EXPECT_EQ(failure.status, 400U);
    EXPECT_NE(failure.body.find("crates"), std::string::npos) << failure.body;
    EXPECT_EQ(create_match(server->port(), R"({"bots":7})", &failure), "");
    EXPECT_NE(failure.body.find("bots"), std::string::npos);
    EXPECT_EQ(create_match(server->port(), "not json", &failure), "");
    EXPECT_EQ(failure.status, 400U);

    const std::string a = create_match(server->port(), R"({"variant":"warren","bots":6})");
    const std::string b = create_match(server->port(), R"({"variant":"long-hall"})");
    ASSERT_FALSE(a.empty());
    ASSERT_FALSE(b.empty());
    EXPECT_EQ(create_match(server->port(), R"({})", &failure), "");  // default + 2 = the cap of 3
    EXPECT_EQ(failure.status, 409U);
    EXPECT_NE(failure.headers.at("content-type").find("problem+json"), std::string::npos);

    const auto one = match_json(server->port(), a);
    EXPECT_EQ(one.at("variant"), "warren");
    EXPECT_EQ(one.at("gameVersion"), "2");  // the rules it plays by, named in every summary
    EXPECT_EQ(one.at("seats").as_array()[5].as_object().at("kind"), "scripted");
    EXPECT_TRUE(one.at("results").is_null());
    EXPECT_EQ(http_request(server->port(), "GET", "/api/hns/matches/nope").status, 404U);
    EXPECT_EQ(http_request(server->port(), "GET", "/api/hns/matches/" + a + "/replay").status, 409U);

    auto viewer = open_socket(server->port(), "/global?match=" + b);
    ASSERT_TRUE(viewer);
    ASSERT_TRUE(next_binary(*viewer));
    EXPECT_EQ(http_request(server->port(), "DELETE", "/api/hns/matches/" + b).status, 204U);
    auto closed = viewer->read_until_closed();
    ASSERT_TRUE(closed);
    EXPECT_EQ(closed->code, 1001);
    EXPECT_EQ(http_request(server->port(), "GET", "/api/hns/matches/" + b).status, 404U);
    EXPECT_FALSE(create_match(server->port(), R"({})").empty());  // room again under the cap
}

TEST_F(HnsMatches, LiveSpeedKeysStepSixteenTicksPerFrame) {
    const std::string id = create_match(server->port(), R"({"variant":"certification","bots":6})");
    ASSERT_FALSE(id.empty());
    auto global = open_socket(server->port(), "/global?match=" + id);
    ASSERT_TRUE(global);
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(next_binary(*global));
    ASSERT_TRUE(global->send(text_message("6")));
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(next_binary(*global));
    // 160 ticks take 160 frames at speed 1; at 16 ticks a frame (less at turn boundaries, where a
    // frame stops early) they take about a dozen.
    const auto before = match_tick(server->port(), id);
    int frames = 0;
    while (match_tick(server->port(), id) < before + 160 && frames < 200) {
        ASSERT_TRUE(next_binary(*global));
        ++frames;
    }
    EXPECT_LE(frames, 60) << "frames for 160 ticks at speed 16";
    // The replay's hash records jump by 16 per frame but stay gap-free (one record per tick).
    ASSERT_EQ(play_out(server->port(), id), 1000);
    auto data = sim::hns::parse_replay(download_replay(server->port(), id));
    ASSERT_TRUE(data) << data.error;
    for (std::size_t i = 0; i < data->hashes.size(); ++i) ASSERT_EQ(data->hashes[i].tick, i + 1);
}

TEST_F(HnsMatches, AFinishedMatchHasResultsAndAReplayThatVerifies) {
    const std::string id = create_match(server->port(), R"({"variant":"certification","bots":6})");
    ASSERT_FALSE(id.empty());
    ASSERT_EQ(play_out(server->port(), id), 1000);
    const auto m = match_json(server->port(), id);
    ASSERT_EQ(m.at("phase"), "finished");
    const auto& results = m.at("results").as_object();
    // The certification timeline: the lobby step that sees all six is L = 1 (as in the reference's
    // cert_zero), each game is 474 ticks, both hunts 271 ticks; hidden + seen = the hunt; Σ scores = 0.
    EXPECT_EQ(results.at("finalTick").as_int64(), 1 + 948);
    EXPECT_EQ(results.at("huntTicksPlayed").as_array()[0].as_int64(), 271);
    for (int g = 0; g < 2; ++g) {
        EXPECT_EQ(results.at("hiddenTicks").as_array()[g].as_int64() + results.at("seenTicks").as_array()[g].as_int64(),
                  results.at("huntTicksPlayed").as_array()[g].as_int64());
    }
    double sum = 0;
    for (const auto& score : results.at("scores").as_array()) sum += score.to_number<double>();
    EXPECT_NEAR(sum, 0.0, 1e-9);
    EXPECT_EQ(results.at("huntTicksPlayed").as_array()[1].as_int64(), 271);

    const std::string replay = download_replay(server->port(), id);
    // HEAD of the streamed file: GET's Content-Length, no body (nothing left to spill into a next answer).
    const auto head = http_request(server->port(), "HEAD", "/api/hns/matches/" + id + "/replay");
    EXPECT_EQ(head.status, 200U);
    EXPECT_EQ(head.headers.count("content-length") ? head.headers.at("content-length") : "", std::to_string(replay.size()));
    EXPECT_TRUE(head.body.empty());
    // A new match plays GameVersion 2 and says so in its header.
    const std::string header("COWLDHNS\x01\x00\x0D\x00hide-and-seek\x01\x00\x32", 8 + 2 + 2 + 13 + 3);
    ASSERT_GE(replay.size(), header.size());
    EXPECT_EQ(replay.substr(0, header.size()), header);
    auto data = sim::hns::parse_replay(replay);
    ASSERT_TRUE(data) << data.error;
    ASSERT_FALSE(data->hashes.empty());
    for (std::size_t i = 0; i < data->hashes.size(); ++i) ASSERT_EQ(data->hashes[i].tick, i + 1) << "gap at " << i;
    const auto report = sim::hns::verify_replay(*data);
    EXPECT_TRUE(report.ok) << report.message();

    // The same file, checked by part 1's own tool.
    const auto file = dir.path() / "match.cowldhns";
    {
        std::ofstream out(file, std::ios::binary);
        out << replay;
    }
    const std::string command = std::string(HSCHOOL_HNS_TOOL) + " verify " + file.string() + " > /dev/null";
    EXPECT_EQ(std::system(command.c_str()), 0);
}

TEST_F(HnsMatches, ReplaySocketPlaysSeeksAndShowsTheTickInTheChrome) {
    const std::string id = create_match(server->port(), R"({"variant":"certification","bots":6})");
    ASSERT_FALSE(id.empty());
    EXPECT_EQ(upgrade_request(server->port(), "/replay?match=" + id).status, 404U);  // not finished yet
    ASSERT_EQ(play_out(server->port(), id), 1000);
    EXPECT_EQ(upgrade_request(server->port(), "/replay?match=m999").status, 404U);
    EXPECT_EQ(upgrade_request(server->port(), "/replay").status, 400U);

    auto replay = open_socket(server->port(), "/replay?match=" + id);
    ASSERT_TRUE(replay);
    auto first = next_binary(*replay);
    ASSERT_TRUE(first);
    EXPECT_TRUE(starts_with(*first, kGlobalHeader));
    const auto chrome_of = [](const protocol::Bytes& message) -> json::object {
        for (const auto& sprite : all_of<sv::DefineSprite>(decode(message)))
            if (sprite.sprite_id == 4090) return parse(sprite.label).as_object();
        return {};
    };
    auto chrome = chrome_of(*first);
    for (int i = 0; i < 3 && !chrome.contains("t"); ++i) {  // the first frame may span chunks (§1.4)
        auto more = next_binary(*replay);
        ASSERT_TRUE(more);
        chrome = chrome_of(*more);
    }
    ASSERT_TRUE(chrome.contains("t"));
    EXPECT_EQ(chrome.at("end").as_int64(), match_json(server->port(), id).at("results").as_object().at("finalTick").as_int64());
    EXPECT_TRUE(chrome.at("mismatch").is_null());

    ASSERT_TRUE(replay->send(text_message("P")));
    ASSERT_TRUE(replay->send(text_message("s:500")));
    bool seen = false;
    for (int i = 0; i < 60 && !seen; ++i) {
        auto message = next_binary(*replay);
        ASSERT_TRUE(message);
        auto c = chrome_of(*message);
        seen = c.contains("t") && c.at("t").as_int64() == 500 && c.at("paused") == true;
    }
    EXPECT_TRUE(seen) << "the chrome never showed tick 500, paused";
    ASSERT_TRUE(replay->send(text_message("s:100")));  // backwards: re-stepped from the start
    seen = false;
    for (int i = 0; i < 60 && !seen; ++i) {
        auto message = next_binary(*replay);
        ASSERT_TRUE(message);
        auto c = chrome_of(*message);
        seen = c.contains("t") && c.at("t").as_int64() == 100;
    }
    EXPECT_TRUE(seen);
}

TEST_F(HnsMatches, FinishedMatchesSurviveARestartAndNumberingContinues) {
    const std::string id = create_match(server->port(), R"({"variant":"certification","bots":6})");
    ASSERT_FALSE(id.empty());
    ASSERT_EQ(play_out(server->port(), id), 1000);
    const std::string replay = download_replay(server->port(), id);
    ASSERT_FALSE(replay.empty());
    ASSERT_EQ(server->stop(SIGTERM), 0);

    server = std::make_unique<ServerProcess>(hns_server_args(dir));
    ASSERT_TRUE(server->started()) << server->output();
    const auto m = match_json(server->port(), id);
    ASSERT_FALSE(m.empty());
    EXPECT_EQ(m.at("phase"), "finished");
    EXPECT_TRUE(m.at("results").is_object());
    EXPECT_EQ(download_replay(server->port(), id), replay);
    bool listed = false;
    const auto all = parse(http_request(server->port(), "GET", "/api/hns/matches").body);
    for (const auto& v : all.as_object().at("matches").as_array()) listed = listed || v.as_object().at("id").as_string() == id;
    EXPECT_TRUE(listed);
    const std::string next = create_match(server->port(), R"({})");
    EXPECT_GT(std::stoi(next.substr(1)), std::stoi(id.substr(1)));
    EXPECT_EQ(http_request(server->port(), "DELETE", "/api/hns/matches/" + id).status, 204U);
    EXPECT_EQ(http_request(server->port(), "GET", "/api/hns/matches/" + id).status, 404U);
}

TEST_F(HnsMatches, TheLobbyTimeoutFillsMissingSeatsWithBurrowAsDeadSeats) {
    const std::string id = create_match(server->port(), R"({"variant":"certification","config":{"lobbyJoinTimeoutTicks":12}})");
    ASSERT_FALSE(id.empty());
    auto seat = open_socket(server->port(), "/player?match=" + id + "&slot=0&name=early");
    ASSERT_TRUE(seat);
    bool filled = false;
    for (int i = 0; i < 200 && !filled; ++i) {
        ASSERT_TRUE(next_binary(*seat));
        const auto seats = match_json(server->port(), id).at("seats").as_array();
        filled = seats[5].as_object().at("kind") == "scripted";
    }
    ASSERT_TRUE(filled);
    const auto seats = match_json(server->port(), id).at("seats").as_array();
    EXPECT_EQ(seats[0].as_object().at("identity"), "early");
    EXPECT_EQ(seats[1].as_object().at("identity"), "SEEKER-alpha");  // the seat's alias (§2.9)
    seat.reset();
    ASSERT_EQ(play_out(server->port(), id), 1000);
    const auto dead = match_json(server->port(), id).at("results").as_object().at("deadSeats").as_array();
    EXPECT_EQ(dead[0], false);
    for (int s = 1; s < 6; ++s) EXPECT_EQ(dead[static_cast<std::size_t>(s)], true) << s;
}

TEST_F(HnsMatches, ARestartBuildsANewSimAndTheStreamsStartOver) {
    const std::string id = create_match(server->port(), R"({"variant":"certification","bots":5})");
    ASSERT_FALSE(id.empty());
    auto seat = open_socket(server->port(), "/player?match=" + id + "&slot=0&name=stay");
    ASSERT_TRUE(seat);
    while (match_tick(server->port(), id) < 48) ASSERT_TRUE(next_binary(*seat));
    const auto before = match_tick(server->port(), id);
    const auto restarted = http_request(server->port(), "POST", "/control/restart?match=" + id);
    EXPECT_EQ(restarted.status, 202U);
    // Ticks only go backwards through a restart; the socket's stream starts over with the header.
    bool header = false, went_back = false;
    for (int i = 0; i < 400 && !(header && went_back); ++i) {
        auto message = next_binary(*seat);
        ASSERT_TRUE(message);
        header = header || starts_with(*message, kPlayerHeader);
        went_back = went_back || match_tick(server->port(), id) < before;
    }
    EXPECT_TRUE(header) << "the stream starts over with the header";
    EXPECT_TRUE(went_back) << "the tick count starts over";
    EXPECT_EQ(match_json(server->port(), id).at("seats").as_array()[0].as_object().at("identity"), "stay");
}

// While A provably waits (its tick does not move), B must step 24 ticks and the arena send 24
// snapshots: they are not held up, however slow the machine. Were they stuck behind A's wait, they
// would stand still until A's budget (far beyond kWait) ran out.
TEST_F(HnsMatches, AMatchWaitingForADecisionDelaysNeitherOtherMatchesNorTheArena) {
    // Match A: one external seat that never answers, with a 10 min budget: A stands still meanwhile.
    const std::string a = create_match(server->port(), R"({"variant":"certification","bots":5,"config":{"turnBudgetMs":600000,"attempt1Ms":300000,"retryMs":100000}})");
    const std::string b = create_match(server->port(), R"({"variant":"certification","bots":6})");
    ASSERT_FALSE(a.empty());
    ASSERT_FALSE(b.empty());
    auto silent = open_socket(server->port(), "/player?match=" + a + "&slot=0&name=silent");
    ASSERT_TRUE(silent);
    ASSERT_TRUE(silent->send(text_message(R"({"type":"register","mode":"external"})")));
    const auto decision = next_text(*silent);  // from now on A waits for this seat's answer
    ASSERT_TRUE(decision);
    ASSERT_EQ(decisions_seen({*decision}), 1);
    auto arena = WsClient::connect(server->port());
    ASSERT_TRUE(arena);
    ASSERT_TRUE(arena->send(arena_hello("watcher")));
    const auto a_before = match_tick(server->port(), a);
    const auto b_before = match_tick(server->port(), b);
    int snapshots = 0;
    std::int64_t b_after = b_before;
    // A second of B's 24 Hz and of the arena's 20 Hz, on a quiet machine.
    for (const auto until = Clock::now() + kWait; (snapshots < 24 || b_after - b_before < 24) && Clock::now() < until;) {
        auto event = arena->read();
        auto* frame = std::get_if<Frame>(&event);
        ASSERT_TRUE(frame);
        auto decoded = v1::decode_server(frame->data);
        if (decoded && std::holds_alternative<v1::Snapshot>(*decoded)) ++snapshots;
        b_after = match_tick(server->port(), b);
    }
    const auto a_after = match_tick(server->port(), a);
    EXPECT_EQ(a_after, a_before) << "match A waits for its seat";
    EXPECT_GE(b_after - b_before, 24) << "match B steps while A waits";
    EXPECT_GE(snapshots, 24) << "the arena steps while A waits";
}

}  // namespace
}  // namespace hschool::test::hns
