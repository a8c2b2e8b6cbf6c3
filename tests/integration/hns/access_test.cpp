// Who may do what to a hide-and-seek match (issue 18), against the real server in both access
// modes: owners' and the operator's tokens on every write, no cross-site writes, private seats,
// clean names, and the drop-in mode serving the league alone.
#include <sys/stat.h>

#include <csignal>
#include <fstream>
#include <sstream>
#include <thread>

#include "hns_client.hpp"
#include "seat_bot.hpp"

namespace hschool::test::hns {
namespace {

// The operator's token file's one line.
std::string read_token(const std::filesystem::path& path) {
    std::string s = read_file(path);
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
}

std::map<std::string, std::string> bearer(const std::string& token) { return {{"Authorization", "Bearer " + token}}; }

struct Created {
    std::string id;
    std::string owner_token;  // "" in open mode
};

Created create_owned(std::uint16_t port, const std::string& body) {
    const auto response = http_request(port, "POST", "/api/hns/matches", body, {{"Content-Type", "application/json"}});
    EXPECT_EQ(response.status, 201U) << response.body;
    const auto value = parse(response.body);
    if (!value.is_object()) return {};
    const auto& object = value.as_object();
    const auto* token = object.if_contains("ownerToken");
    return {std::string(object.at("id").as_string()), token && token->is_string() ? std::string(token->as_string()) : ""};
}

std::string problem_code(const HttpResult& response) {
    const auto value = parse(response.body);
    if (!value.is_object() || !value.as_object().contains("code")) return "<no problem: " + response.body + ">";
    EXPECT_EQ(response.headers.count("content-type") ? response.headers.at("content-type") : "", "application/problem+json");
    return std::string(value.as_object().at("code").as_string());
}

// Watches at 16 ticks a frame, with the token that lets the speed keys count, until the match ends.
std::optional<std::uint16_t> play_out_as(std::uint16_t port, const std::string& id, const std::string& token) {
    auto global = open_socket(port, "/global?match=" + id + "&ownerToken=" + token);
    if (!global || !global->send(text_message("6"))) return std::nullopt;
    auto closed = global->read_until_closed(kWait);
    if (!closed) return std::nullopt;
    return closed->code;
}

// Frames a /global socket needs for `ticks` ticks after sending the speed key "6".
int frames_for_ticks_after_speed_key(std::uint16_t port, const std::string& id, const std::string& query, int ticks) {
    auto global = open_socket(port, "/global?match=" + id + query);
    if (!global) return -1;
    for (int i = 0; i < 3; ++i)
        if (!next_binary(*global)) return -1;
    if (!global->send(text_message("6"))) return -1;
    for (int i = 0; i < 3; ++i)
        if (!next_binary(*global)) return -1;
    const auto before = match_tick(port, id);
    int frames = 0;
    while (match_tick(port, id) < before + ticks && frames < 400) {
        if (!next_binary(*global)) return -1;
        ++frames;
    }
    return frames;
}

class OwnersMode : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_TRUE(server->started()) << server->output();
        admin = read_token(admin_file);
        ASSERT_EQ(admin.size(), 64U);
    }
    std::vector<std::string> args() {
        return hns_server_args(dir, {"--access", "owners", "--admin-token-file", admin_file.string()});
    }
    TempDir dir;
    std::filesystem::path admin_file = dir.path() / "secrets" / "admin.token";
    std::unique_ptr<ServerProcess> server = std::make_unique<ServerProcess>(args());
    std::string admin;
};

TEST_F(OwnersMode, HealthAndTheStartupLogSayWhichModeRunsAndNeverTheToken) {
    EXPECT_EQ(parse(http_request(server->port(), "GET", "/health").body).as_object().at("access"), "owners");
    const std::string log = server->output();
    EXPECT_NE(log.find("access=owners"), std::string::npos) << log;
    EXPECT_NE(log.find(admin_file.string()), std::string::npos) << "the log names the token file";
    EXPECT_EQ(log.find(admin), std::string::npos) << "the log never shows the token";
    struct stat info {};
    ASSERT_EQ(::stat(admin_file.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0600U);
}

TEST_F(OwnersMode, DeletingAMatchNeedsItsOwnersOrTheOperatorsToken) {
    const auto mine = create_owned(server->port(), R"({"variant":"certification"})");
    const auto theirs = create_owned(server->port(), R"({"variant":"certification"})");
    ASSERT_EQ(mine.owner_token.size(), 64U) << "the 201 hands out the owner token";
    ASSERT_NE(mine.owner_token, theirs.owner_token);
    // Given once: never in the list or the summary.
    EXPECT_EQ(http_request(server->port(), "GET", "/api/hns/matches").body.find(mine.owner_token), std::string::npos);
    EXPECT_EQ(http_request(server->port(), "GET", "/api/hns/matches/" + mine.id).body.find(mine.owner_token), std::string::npos);

    const std::string path = "/api/hns/matches/" + mine.id;
    const auto none = http_request(server->port(), "DELETE", path);
    EXPECT_EQ(none.status, 401U);
    EXPECT_EQ(problem_code(none), "unauthorized");
    const auto wrong = http_request(server->port(), "DELETE", path, "", bearer(theirs.owner_token));
    EXPECT_EQ(wrong.status, 403U);
    EXPECT_EQ(problem_code(wrong), "forbidden");
    EXPECT_EQ(match_json(server->port(), mine.id).at("phase"), "lobby") << "a refused delete changes nothing";
    EXPECT_EQ(http_request(server->port(), "DELETE", path, "", bearer(mine.owner_token)).status, 204U);
    EXPECT_EQ(http_request(server->port(), "DELETE", "/api/hns/matches/" + theirs.id, "", bearer(admin)).status, 204U);
    // The default match is the operator's.
    const auto default_id = std::string(parse(http_request(server->port(), "GET", "/api/hns/matches").body)
                                            .as_object().at("matches").as_array()[0].as_object().at("id").as_string());
    EXPECT_EQ(http_request(server->port(), "DELETE", "/api/hns/matches/" + default_id, "", bearer(mine.owner_token)).status, 403U);
    EXPECT_EQ(http_request(server->port(), "DELETE", "/api/hns/matches/" + default_id, "", bearer(admin)).status, 204U);
}

TEST_F(OwnersMode, RestartAndKickNeedTheOwnersOrTheOperatorsToken) {
    const auto mine = create_owned(server->port(), R"({"variant":"certification"})");
    const auto theirs = create_owned(server->port(), R"({"variant":"certification"})");
    const auto third = create_owned(server->port(), R"({"variant":"certification"})");
    for (const std::string route : {"/control/restart?match=", "/control/kick?identity=alice&match="}) {
        const auto none = http_request(server->port(), "POST", route + mine.id);
        EXPECT_EQ(none.status, 401U) << route;
        EXPECT_EQ(problem_code(none), "unauthorized") << route;
        EXPECT_EQ(http_request(server->port(), "POST", route + mine.id, "", bearer(theirs.owner_token)).status, 403U) << route;
        EXPECT_EQ(http_request(server->port(), "POST", route + mine.id, "", bearer(mine.owner_token)).status, 202U) << route;
        // Another match for the operator: two restarts of one match within a second are 429 (issue 19).
        EXPECT_EQ(http_request(server->port(), "POST", route + third.id, "", bearer(admin)).status, 202U) << route;
    }
    // A kick nobody was allowed to queue leaves the name free; the owner's kick takes it.
    EXPECT_TRUE(open_socket(server->port(), "/player?match=" + theirs.id + "&name=alice"));
    EXPECT_EQ(upgrade_request(server->port(), "/player?match=" + mine.id + "&name=alice").status, 409U);
    // The default match: only the operator.
    EXPECT_EQ(http_request(server->port(), "POST", "/control/restart", "", bearer(mine.owner_token)).status, 403U);
    EXPECT_EQ(http_request(server->port(), "POST", "/control/restart", "", bearer(admin)).status, 202U);
    // A stranger learns nothing, not even whether a match runs.
    EXPECT_EQ(http_request(server->port(), "POST", "/control/restart?match=m999").status, 401U);
    EXPECT_EQ(http_request(server->port(), "POST", "/control/restart?match=m999", "", bearer(admin)).status, 404U);
}

TEST_F(OwnersMode, LiveSpeedKeysCountOnlyWithTheOwnersToken) {
    const auto mine = create_owned(server->port(), R"({"variant":"certification","bots":6})");
    EXPECT_EQ(upgrade_request(server->port(), "/global?match=" + mine.id + "&ownerToken=wrong").status, 403U);
    EXPECT_EQ(upgrade_request(server->port(), "/global?match=" + mine.id + "&ownerToken=wrong").body, "owner token does not match this match\n");
    // Without the token the key is ignored: 48 ticks take 48 frames at speed 1 (ticks are read from
    // the REST, so a frame or two may pass between reads).
    const int anonymous = frames_for_ticks_after_speed_key(server->port(), mine.id, "", 48);
    EXPECT_GE(anonymous, 40) << "a stranger's speed key was obeyed";
    const int owner = frames_for_ticks_after_speed_key(server->port(), mine.id, "&ownerToken=" + mine.owner_token, 160);
    ASSERT_GT(owner, 0);
    EXPECT_LE(owner, 60) << "the owner's speed key was ignored";
}

TEST_F(OwnersMode, ArchivedMatchesKeepTheirOwnerAcrossARestart) {
    // Each match is watched from its start: one left to itself may end, its /global gone, while the
    // other is played out on a busy machine.
    const auto mine = create_owned(server->port(), R"({"variant":"certification","bots":6})");
    ASSERT_EQ(play_out_as(server->port(), mine.id, mine.owner_token), 1000);
    const auto theirs = create_owned(server->port(), R"({"variant":"certification","bots":6})");
    ASSERT_EQ(play_out_as(server->port(), theirs.id, admin), 1000);
    ASSERT_EQ(server->stop(SIGTERM), 0);
    server = std::make_unique<ServerProcess>(args());
    ASSERT_TRUE(server->started()) << server->output();
    EXPECT_EQ(read_token(admin_file), admin) << "the operator's token is reused";
    EXPECT_EQ(match_json(server->port(), mine.id).at("phase"), "finished");
    const std::string path = "/api/hns/matches/" + mine.id;
    EXPECT_EQ(http_request(server->port(), "DELETE", path).status, 401U);
    EXPECT_EQ(http_request(server->port(), "DELETE", path, "", bearer(theirs.owner_token)).status, 403U);
    EXPECT_EQ(http_request(server->port(), "DELETE", path, "", bearer(mine.owner_token)).status, 204U);
    EXPECT_EQ(http_request(server->port(), "GET", path).status, 404U);
    EXPECT_EQ(http_request(server->port(), "DELETE", "/api/hns/matches/" + theirs.id, "", bearer(admin)).status, 204U);
}

// Both modes: a page elsewhere must not drive a visitor's browser into writes here.
class CrossSite : public ::testing::TestWithParam<const char*> {
protected:
    TempDir dir;
    ServerProcess server{hns_server_args(dir, {"--access", GetParam()})};
};

TEST_P(CrossSite, WritesFromAForeignOriginAreRefusedAndTheSameFromCurlPass) {
    ASSERT_TRUE(server.started()) << server.output();
    const std::map<std::string, std::string> json_from_evil{{"Content-Type", "application/json"}, {"Origin", "https://evil.example"}};
    const auto refused = http_request(server.port(), "POST", "/api/hns/matches", "{}", json_from_evil);
    EXPECT_EQ(refused.status, 403U);
    EXPECT_EQ(problem_code(refused), "forbidden-origin");
    EXPECT_EQ(http_request(server.port(), "POST", "/control/restart", "", {{"Origin", "https://evil.example"}}).status, 403U);
    EXPECT_EQ(http_request(server.port(), "DELETE", "/api/hns/matches/m1", "", {{"Origin", "null"}}).status, 403U);
    EXPECT_EQ(http_request(server.port(), "POST", "/api/schools", "{}", json_from_evil).status, 403U);
    EXPECT_EQ(parse(http_request(server.port(), "GET", "/api/hns/matches").body).as_object().at("matches").as_array().size(), 1U)
        << "nothing was created";
    // No Origin (curl, a league runner) and our own pages pass.
    EXPECT_EQ(http_request(server.port(), "POST", "/api/hns/matches", "{}", {{"Content-Type", "application/json"}}).status, 201U);
    EXPECT_EQ(http_request(server.port(), "POST", "/api/hns/matches", "{}",
                           {{"Content-Type", "application/json"}, {"Origin", "http://127.0.0.1"}}).status, 201U);
    // A "simple" cross-site request carries no JSON type: refused even with no Origin to check.
    for (const char* type : {"text/plain", ""}) {
        std::map<std::string, std::string> headers;
        if (*type) headers["Content-Type"] = type;
        const auto simple = http_request(server.port(), "POST", "/api/hns/matches", "", headers);
        EXPECT_EQ(simple.status, 415U) << type;
    }
}

INSTANTIATE_TEST_SUITE_P(BothModes, CrossSite, ::testing::Values("open", "owners"));

class OpenMode : public ServerTest<hns_server_args> {};

TEST_F(OpenMode, IsTheDefaultOnLoopbackAndTrustsEveryone) {
    EXPECT_EQ(parse(http_request(server.port(), "GET", "/health").body).as_object().at("access"), "open");
    const auto created = create_owned(server.port(), R"({"variant":"certification"})");
    EXPECT_TRUE(created.owner_token.empty()) << "open mode hands out no owner token";
    EXPECT_EQ(http_request(server.port(), "POST", "/control/restart?match=" + created.id).status, 202U);
    EXPECT_EQ(http_request(server.port(), "DELETE", "/api/hns/matches/" + created.id).status, 204U);
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "admin.token")) << "open mode needs no operator token";
}

// ---- private seats (both modes) ----

const SeatBot::Answer kHide = [](int, int, int) { return std::string(R"({"intent":"hide"})"); };

std::unique_ptr<SeatBot> external_seat(std::uint16_t port, const std::string& target, int seat) {
    auto ws = open_socket(port, target);
    if (!ws || !ws->send(text_message(R"({"type":"register","mode":"external"})"))) return nullptr;
    return std::make_unique<SeatBot>(std::move(ws), seat, kHide);
}

// Wall-clock pacing (no fast mode), so a match whose seat dropped does not race to its end.
constexpr const char* kPacedMatch = R"({"variant":"certification","bots":5,"config":{"fastMode":false}})";

TEST_F(OpenMode, ASpyCannotOpenALiveSeatAndIsGivenNothing) {
    const std::string id = create_match(server.port(), kPacedMatch);
    ASSERT_FALSE(id.empty());
    auto alice = external_seat(server.port(), "/player?match=" + id + "&slot=0&name=alice", 0);
    ASSERT_TRUE(alice);
    ASSERT_TRUE(eventually([&] { return alice->decision_count() >= 1; })) << "alice gets her decisions";
    const auto by_slot = upgrade_request(server.port(), "/player?match=" + id + "&slot=0&name=spy");
    EXPECT_EQ(by_slot.status, 409U);
    EXPECT_EQ(by_slot.body, "Player slot 0 is already occupied.\n");
    const auto by_name = upgrade_request(server.port(), "/player?match=" + id + "&name=alice");
    EXPECT_EQ(by_name.status, 409U);
    EXPECT_EQ(by_name.body, "Player name is already connected.\n");
    EXPECT_EQ(upgrade_request(server.port(), "/player?match=" + id + "&slot=3&name=spy").status, 409U) << "a bot's seat";
    // An anonymous socket during play sees the header only: never another seat's decision.
    auto watcher = open_socket(server.port(), "/player?match=" + id + "&name=spy");
    ASSERT_TRUE(watcher);
    const std::size_t seen = alice->decision_count();
    std::vector<std::string> texts;
    for (int i = 0; i < 2000 && alice->decision_count() < seen + 2; ++i) ASSERT_TRUE(next_binary(*watcher, &texts));
    EXPECT_GE(alice->decision_count(), seen + 2) << "alice decided meanwhile";
    EXPECT_EQ(decisions_seen(texts), 0) << "the spy saw a decision";
    alice->stop();
}

TEST_F(OpenMode, ADroppedSeatIsReadmittedToItsIdentityAndNotToAStranger) {
    const std::string id = create_match(server.port(), kPacedMatch);
    ASSERT_FALSE(id.empty());
    const std::string seat0 = "/player?match=" + id + "&slot=0&name=alice";
    auto alice = external_seat(server.port(), seat0, 0);
    ASSERT_TRUE(alice);
    ASSERT_TRUE(eventually([&] { return alice->decision_count() >= 1; }));
    alice->stop();
    alice.reset();  // a network blip
    // The seat stays alice's: a stranger asking for it is refused while nobody holds it.
    ASSERT_TRUE(eventually([&] { return !match_json(server.port(), id).at("seats").as_array()[0].as_object().at("connected").as_bool(); }));
    const auto stranger = upgrade_request(server.port(), "/player?match=" + id + "&slot=0&name=mallory");
    EXPECT_EQ(stranger.status, 409U);
    EXPECT_EQ(stranger.body, "Player slot 0 is already occupied.\n");
    auto again = external_seat(server.port(), seat0, 0);
    ASSERT_TRUE(again) << "the re-dial is admitted";
    ASSERT_TRUE(eventually([&] { return again->decision_count() >= 1; })) << "the re-dialed socket gets the seat's decisions";
    EXPECT_EQ(again->decisions().front().at("seat").as_int64(), 0);
    EXPECT_EQ(match_json(server.port(), id).at("seats").as_array()[0].as_object().at("connected"), true);
    again->stop();
}

TEST_F(OpenMode, WithTokensTheSeatsOwnTokenTakesTheSeatOverFromALiveSocket) {
    const std::string id = create_match(server.port(),
        R"({"variant":"certification","bots":5,"config":{"fastMode":false,"tokens":["a","b","c","d","e","f"]}})");
    ASSERT_FALSE(id.empty());
    const std::string seat0 = "/player?match=" + id + "&slot=0&name=alice&token=a";
    auto first = external_seat(server.port(), seat0, 0);
    ASSERT_TRUE(first);
    ASSERT_TRUE(eventually([&] { return first->decision_count() >= 1; }));
    // Without the seat's token, no: the name alone does not take a seat in a match with tokens.
    EXPECT_EQ(upgrade_request(server.port(), "/player?match=" + id + "&slot=0&name=alice").status, 403U);
    // A half-open old socket must not keep its owner out: the newer one with the token replaces it.
    auto second = external_seat(server.port(), seat0, 0);
    ASSERT_TRUE(second);
    first->wait();
    EXPECT_EQ(first->close_code(), 1008) << "the replaced socket is closed";
    ASSERT_TRUE(eventually([&] { return second->decision_count() >= 1; })) << "the newer socket holds the seat";
    second->stop();
    second.reset();  // dropped: the same identity and token re-dial into the seat, a wrong token does not
    ASSERT_TRUE(eventually([&] { return !match_json(server.port(), id).at("seats").as_array()[0].as_object().at("connected").as_bool(); }));
    EXPECT_EQ(upgrade_request(server.port(), "/player?match=" + id + "&slot=0&name=alice&token=b").status, 403U);
    auto third = external_seat(server.port(), seat0, 0);
    ASSERT_TRUE(third);
    ASSERT_TRUE(eventually([&] { return third->decision_count() >= 1; })) << "the re-dial with the token gets the seat back";
    third->stop();
}

TEST_F(OpenMode, ARestartNeverHandsASeatToAnotherIdentity) {
    const std::string id = create_match(server.port(), kPacedMatch);
    ASSERT_FALSE(id.empty());
    {
        auto alice = open_socket(server.port(), "/player?match=" + id + "&slot=0&name=alice");
        ASSERT_TRUE(alice);
        while (match_tick(server.port(), id) < 24) ASSERT_TRUE(next_binary(*alice));
    }  // alice drops
    auto mallory = open_socket(server.port(), "/player?match=" + id + "&name=mallory");  // waits in the wings
    ASSERT_TRUE(mallory);
    ASSERT_TRUE(next_binary(*mallory));
    ASSERT_EQ(http_request(server.port(), "POST", "/control/restart?match=" + id).status, 202U);
    // After the restart the lobby keeps seat 0 for alice; mallory is not seated in it.
    for (int i = 0; i < 72; ++i) ASSERT_TRUE(next_binary(*mallory));
    auto seats = match_json(server.port(), id).at("seats").as_array();
    EXPECT_NE(seats[0].as_object().at("identity"), "mallory");
    auto alice = open_socket(server.port(), "/player?match=" + id + "&slot=0&name=alice");
    ASSERT_TRUE(alice);
    bool seated = false;
    for (int i = 0; i < 200 && !seated; ++i) {
        ASSERT_TRUE(next_binary(*alice));
        seated = match_json(server.port(), id).at("seats").as_array()[0].as_object().at("identity") == "alice";
    }
    EXPECT_TRUE(seated) << "alice gets her seat back";
}

TEST_F(OpenMode, ANameThatIsNotCleanTextIsRefusedBeforeTheUpgrade) {
    for (const char* name : {"%FF%FEx", "a%E2%80%AEb", "a%07b"}) {
        const auto refused = upgrade_request(server.port(), std::string("/player?name=") + name);
        EXPECT_EQ(refused.status, 403U) << name;
        EXPECT_EQ(refused.body, "Player name must be UTF-8 text without control or bidi characters.\n") << name;
    }
    EXPECT_EQ(http_request(server.port(), "POST", "/control/kick?identity=%FF").status, 400U);
    // The REST stays valid JSON (parse() gives null on invalid text).
    EXPECT_TRUE(parse(http_request(server.port(), "GET", "/api/hns/matches").body).is_object());
}

// ---- drop-in: the league's match only ----

class DropIn : public ::testing::TestWithParam<const char*> {};

TEST_P(DropIn, NoOneCanDeleteTheLeaguesMatchOrCreateAnother) {
    TempDir dir;
    const auto config = dir.path() / "config.json";
    std::ofstream(config) << R"({"roomPool":"warren","seed":42,"prepTurns":2,"huntTurns":3,"startWaitTicks":0,"gameOverTicks":24})";
    const auto results = dir.path() / "results.json";
    const std::uint16_t port = free_port();
    ServerProcess::Launch launch;
    launch.env = {{"COGAME_CONFIG_URI", "file://" + config.string()},
                  {"COGAME_RESULTS_URI", "file://" + results.string()},
                  {"COGAME_HOST", "127.0.0.1"},
                  {"COGAME_PORT", std::to_string(port)},
                  {"HSCHOOL_DROPIN_LINGER_MS", "20000"}};
    auto args = isolated_server_args(dir);
    if (std::string(GetParam()) != "default") args.insert(args.end(), {"--access", GetParam()});
    ServerProcess server(args, launch);
    ASSERT_TRUE(server.started()) << server.output();
    const std::string expected_mode = std::string(GetParam()) == "owners" ? "owners" : "open";
    EXPECT_EQ(parse(http_request(port, "GET", "/health").body).as_object().at("access").as_string(), expected_mode);
    const auto list = parse(http_request(port, "GET", "/api/hns/matches").body).as_object().at("matches").as_array();
    ASSERT_EQ(list.size(), 1U);
    const std::string league = std::string(list[0].as_object().at("id").as_string());

    const auto removed = http_request(port, "DELETE", "/api/hns/matches/" + league);
    EXPECT_EQ(removed.status, 403U) << removed.body;
    const auto created = http_request(port, "POST", "/api/hns/matches", R"({"config":{"wallClockBudgetSeconds":1}})",
                                      {{"Content-Type", "application/json"}});
    EXPECT_EQ(created.status, 409U) << created.body;
    EXPECT_EQ(match_json(port, league).at("phase"), "lobby") << "the league's match runs on";
    EXPECT_FALSE(std::filesystem::exists(results)) << "nothing wrote the league's results";
    // The reference's pod answers the controls to any origin.
    auto options = http_request(port, "OPTIONS", "/control/restart", "", {{"Origin", "https://admin.example"}});
    EXPECT_EQ(options.headers["access-control-allow-origin"], "*");
}

INSTANTIATE_TEST_SUITE_P(EveryMode, DropIn, ::testing::Values("default", "open", "owners"));

}  // namespace
}  // namespace hschool::test::hns
