// Leagues on the real server (issue 33, point 3): a league played to its end whose every match is
// an archived replay that verifies, the owner's stop with a partial table, the problems a bad body
// gets, the budgets (each test fails without its budget) and live matches that keep playing beside
// a league. Polls are bounded, never timed.
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "fake_model.hpp"
#include "hns_client.hpp"
#include "sim/hns/replay.hpp"
#include "sim/hns/verify.hpp"

namespace hschool::test::hns {
namespace {

// A league that runs for minutes on this box: budget tests need it still running.
const std::string kLongLeague =
    R"({"entrants":[{"name":"b","kind":"builtin:burrow"},{"name":"s","kind":"builtin:scatter"}],"matches":1000,"variant":"certification","seed":3})";
constexpr int kLeaguePollRounds = 6000;  // x 20 ms: generous on a busy 2-core box; a failure, not a timing check
const std::map<std::string, std::string> kLeagueJson{{"Content-Type", "application/json"}};

HttpResult post_league(std::uint16_t port, const std::string& body, std::map<std::string, std::string> headers = kLeagueJson) {
    return http_request(port, "POST", "/api/hns/leagues", body, headers);
}

json::object league_json(std::uint16_t port, const std::string& id) {
    const auto response = http_request(port, "GET", "/api/hns/leagues/" + id);
    const auto value = parse(response.body);
    return response.status == 200 && value.is_object() ? value.as_object() : json::object{};
}

std::string league_problem(const HttpResult& response) {
    EXPECT_EQ(response.headers.count("content-type") ? response.headers.at("content-type") : "", "application/problem+json");
    const auto value = parse(response.body);
    return value.is_object() && value.as_object().contains("code") ? std::string(value.as_object().at("code").as_string()) : response.body;
}

std::string started_league(std::uint16_t port, const std::string& body, std::string* owner_token = nullptr) {
    const auto response = post_league(port, body);
    EXPECT_EQ(response.status, 201U) << response.body;
    const auto value = parse(response.body);
    if (!value.is_object()) return "";
    const auto& o = value.as_object();
    EXPECT_EQ(response.headers.count("location") ? response.headers.at("location") : "", "/api/hns/leagues/" + std::string(o.at("id").as_string()));
    if (owner_token && o.contains("ownerToken")) *owner_token = std::string(o.at("ownerToken").as_string());
    return std::string(o.at("id").as_string());
}

std::int64_t league_number(const json::object& o, const char* outer, const char* key) {
    const auto* v = o.if_contains(outer);
    return v && v->is_object() && v->as_object().contains(key) ? v->as_object().at(key).as_int64() : -1;
}

// Until the league has ended and its table holds every match it played.
json::object until_league_settles(std::uint16_t port, const std::string& id) {
    for (int i = 0; i < kLeaguePollRounds; ++i) {
        const auto o = league_json(port, id);
        // Final: the league has ended and its last fit, made after the end, says so (an earlier fit
        // may already hold every result yet still read "running").
        if (!o.empty() && o.at("state") != "running" && o.at("table").is_object() &&
            o.at("table").as_object().at("state") == o.at("state") &&
            league_number(o, "table", "played") == league_number(o, "progress", "played"))
            return o;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ADD_FAILURE() << "league " << id << " did not settle";
    return {};
}

// Until at least `played` matches are in.
void until_league_played(std::uint16_t port, const std::string& id, int played) {
    for (int i = 0; i < kLeaguePollRounds; ++i) {
        if (league_number(league_json(port, id), "progress", "played") >= played) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ADD_FAILURE() << "league " << id << " played fewer than " << played;
}

class HnsLeagues : public ::testing::Test {
protected:
    // In SetUp, not a member initializer: extra() is the fixture's own only once it is built.
    void SetUp() override {
        server = std::make_unique<ServerProcess>(hns_server_args(dir, extra()));
        ASSERT_TRUE(server->started()) << server->output();
    }
    virtual std::vector<std::string> extra() { return {}; }
    TempDir dir;
    std::unique_ptr<ServerProcess> server;
};

TEST_F(HnsLeagues, RandomAgainstBurrowPlaysToTheEndAndEveryReplayVerifies) {
    const std::string id = started_league(server->port(),
        R"({"entrants":[{"name":"rnd","kind":"builtin:random"},{"name":"bur","kind":"builtin:burrow"}],"matches":4,"variant":"certification","seed":11})");
    ASSERT_EQ(id, "l1");
    const auto league = until_league_settles(server->port(), id);
    ASSERT_FALSE(league.empty());
    EXPECT_EQ(league.at("state"), "finished");
    EXPECT_EQ(league_number(league, "progress", "planned"), 4);
    const auto& table = league.at("table").as_object();
    EXPECT_EQ(table.at("state"), "finished");
    EXPECT_EQ(table.at("played").as_int64(), 4);
    const auto& entrants = table.at("entrants").as_array();
    ASSERT_EQ(entrants.size(), 2U);
    EXPECT_EQ(entrants[0].as_object().at("name"), "rnd");
    EXPECT_EQ(entrants[1].as_object().at("kind"), "builtin:burrow");
    for (const auto& e : entrants) {
        const auto& o = e.as_object();
        EXPECT_LE(o.at("low").to_number<double>(), o.at("rating").to_number<double>());
        EXPECT_LE(o.at("rating").to_number<double>(), o.at("high").to_number<double>());
        EXPECT_EQ(o.at("matches").as_int64(), 4);
    }
    const auto& results = table.at("results").as_array();
    ASSERT_EQ(results.size(), 4U) << "one row per planned match";
    const auto listed = http_request(server->port(), "GET", "/api/hns/matches").body;
    for (const auto& row : results) {
        const auto& r = row.as_object();
        const std::string match(r.at("replay").as_string());
        EXPECT_EQ(listed.find("\"" + match + "\""), std::string::npos) << "league matches are not listed as ordinary matches";
        EXPECT_EQ(match_json(server->port(), match).at("phase"), "finished") << match;
        const std::string bytes = download_replay(server->port(), match);
        auto data = sim::hns::parse_replay(bytes);
        ASSERT_TRUE(data) << match << ": " << data.error;
        const auto report = sim::hns::verify_replay(*data);
        ASSERT_TRUE(report.ok) << match << ": " << report.message();
        // The table's six scores are the replay's.
        const auto scores = parse(report.results).as_object().at("scores").as_array();
        for (std::size_t s = 0; s < 6; ++s)
            EXPECT_DOUBLE_EQ(scores[s].to_number<double>(), r.at("scores").as_array()[s].to_number<double>()) << match << " slot " << s;
        const auto file = dir.path() / (match + ".cowldhns");
        std::ofstream(file, std::ios::binary) << bytes;
        EXPECT_EQ(std::system((std::string(HSCHOOL_HNS_TOOL) + " verify " + file.string() + " > /dev/null").c_str()), 0) << match;
    }
    // The browser's replay view (#/hns/replay/<id>) opens /replay?match=<id> on it.
    const std::string shown(results[0].as_object().at("replay").as_string());
    auto viewer = open_socket(server->port(), "/replay?match=" + shown);
    ASSERT_TRUE(viewer) << "the replay socket of a league match opens";
    const auto header = next_binary(*viewer);
    ASSERT_TRUE(header);
    EXPECT_TRUE(starts_with(*header, kGlobalHeader));
    viewer.reset();
    const auto metrics = http_request(server->port(), "GET", "/metrics").body;
    EXPECT_NE(metrics.find("hschool_hns_league_matches_total 4"), std::string::npos);
    EXPECT_NE(metrics.find("hschool_hns_leagues_running 0"), std::string::npos);
    const auto list = parse(http_request(server->port(), "GET", "/api/hns/leagues").body).as_object().at("leagues").as_array();
    ASSERT_EQ(list.size(), 1U);
    EXPECT_FALSE(list[0].as_object().contains("table")) << "the list is short";
    EXPECT_FALSE(list[0].as_object().contains("ownerToken")) << "open mode hands out none";
    // Forgotten: the league and its archived matches.
    EXPECT_EQ(http_request(server->port(), "DELETE", "/api/hns/leagues/" + id).status, 204U);
    EXPECT_EQ(http_request(server->port(), "GET", "/api/hns/leagues/" + id).status, 404U);
    const std::string first(results[0].as_object().at("replay").as_string());
    for (int i = 0; i < kLeaguePollRounds && http_request(server->port(), "GET", "/api/hns/matches/" + first).status != 404U; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(http_request(server->port(), "GET", "/api/hns/matches/" + first).status, 404U);
}

TEST_F(HnsLeagues, APromptEntrantPlaysAsASeatWithoutCredentialsAndItsTextGoesNowhere) {
    const std::string secret = "Hide behind the third crate, secret-f00d";
    const std::string id = started_league(server->port(), R"({"entrants":[{"name":"bur","kind":"builtin:burrow"},)"
                                                          R"({"name":"mine","kind":"prompt","prompt":")" + secret + R"("}],"matches":2,"variant":"certification"})");
    const auto league = until_league_settles(server->port(), id);
    ASSERT_FALSE(league.empty());
    const auto& mine = league.at("table").as_object().at("entrants").as_array()[1].as_object();
    EXPECT_EQ(mine.at("kind"), "prompt");
    EXPECT_EQ(mine.at("fallback"), "no_credentials");
    EXPECT_EQ(league.at("entrants").as_array()[1].as_object().at("fallback"), "no_credentials");
    const auto& first = league.at("table").as_object().at("results").as_array()[0].as_object();
    const std::string match(first.at("replay").as_string());
    for (std::size_t s = 0; s < 6; ++s) {
        const auto& program = first.at("programs").as_array()[s];
        if (first.at("seats").as_array()[s] == "mine") EXPECT_NE(std::string(program.as_string()).find("no_credentials"), std::string::npos);
        else EXPECT_TRUE(program.is_null()) << "a built-in seat runs no program";
    }
    const auto seats = match_json(server->port(), match).at("seats").as_array();
    int prompt_seats = 0;
    for (const auto& s : seats) prompt_seats += s.as_object().at("kind") == "prompt";
    EXPECT_EQ(prompt_seats, 3);
    EXPECT_EQ(http_request(server->port(), "GET", "/api/hns/leagues/" + id).body.find("secret-f00d"), std::string::npos);
    EXPECT_EQ(download_replay(server->port(), match).find("secret-f00d"), std::string::npos);
    EXPECT_EQ(server->output().find("secret-f00d"), std::string::npos);
}

// A server whose language model is a fake sidecar on loopback: a league's prompt entrant asks it
// every turn from the league thread, through the server's own environment (issue 21's transports).
TEST(HnsLeaguesWithAModel, APromptEntrantAsksTheServersModelAndTheBudgetBoundsItsMatches) {
    const std::string secret = "Sweep the hall first, secret-ba5e";
    FakeModel model([](const ModelRequest& r) {
        return ModelReply{200, messages_answer("{\"intent\":\"watch\",\"to\":[" + std::to_string(100 + r.slot) + ",200]}"), {}, 0};
    });
    ASSERT_NE(model.port(), 0);
    TempDir dir;
    ServerProcess::Launch launch;
    launch.env.emplace_back("COWORLD_LLM_ENDPOINT", model.url());
    ServerProcess server(hns_server_args(dir, {"--hns-max-league-model-matches", "2"}), launch);
    ASSERT_TRUE(server.started()) << server.output();
    const std::string prompt_entrant = R"({"name":"mine","kind":"prompt","prompt":")" + secret + R"("})";
    // Three entrants with one prompt: 2 pairings x 2 matches have a prompt seat, over the budget of 2.
    const auto over = post_league(server.port(), R"({"entrants":[{"name":"bur","kind":"builtin:burrow"},{"name":"idl","kind":"builtin:idle"},)" +
                                                     prompt_entrant + R"(],"matches":2,"variant":"certification"})");
    EXPECT_EQ(over.status, 400U);
    EXPECT_EQ(league_problem(over), "too-many-model-matches");
    const std::string id = started_league(server.port(), R"({"entrants":[{"name":"bur","kind":"builtin:burrow"},)" + prompt_entrant +
                                                             R"(],"matches":2,"variant":"certification"})");
    const auto league = until_league_settles(server.port(), id);
    ASSERT_FALSE(league.empty());
    EXPECT_EQ(league.at("state"), "finished");
    EXPECT_FALSE(league.at("entrants").as_array()[1].as_object().contains("fallback")) << "a model is configured";
    const auto& mine = league.at("table").as_object().at("entrants").as_array()[1].as_object();
    const auto requests = model.requests();
    ASSERT_FALSE(requests.empty());
    EXPECT_EQ(mine.at("modelTurns").as_int64(), static_cast<std::int64_t>(requests.size()));
    EXPECT_EQ(mine.at("fallbackTurns").as_int64(), 0);
    for (const auto& r : requests) EXPECT_NE(r.user.find(secret), std::string::npos);
    for (const auto& row : league.at("table").as_object().at("results").as_array()) {
        const auto& o = row.as_object();
        const std::string match(o.at("replay").as_string());
        const std::string replay = download_replay(server.port(), match);
        auto data = sim::hns::parse_replay(replay);
        ASSERT_TRUE(data) << match;
        const auto report = sim::hns::verify_replay(*data);
        EXPECT_TRUE(report.ok) << report.message();
        const auto rederived = parse(report.results).as_object();  // from the replay alone, with no model
        const auto served = match_json(server.port(), match).at("results").as_object();
        for (std::size_t s = 0; s < 6; ++s) {
            const bool prompt = o.at("seats").as_array()[s] == "mine";
            EXPECT_EQ(rederived.at("llmTurns").as_array()[s].as_int64() > 0, prompt) << match << " slot " << s;
            EXPECT_EQ(served.at("llmTurns").as_array()[s], rederived.at("llmTurns").as_array()[s]);
            EXPECT_EQ(served.at("policyKinds").as_array()[s].as_string(), prompt ? "llm" : "scripted");
            if (prompt) {
                EXPECT_EQ(std::string(o.at("programs").as_array()[s].as_string()).rfind("prompt model ", 0), 0U);
            }
        }
        EXPECT_EQ(replay.find("secret-ba5e"), std::string::npos);
    }
    EXPECT_EQ(http_request(server.port(), "GET", "/api/hns/leagues/" + id).body.find("secret-ba5e"), std::string::npos);
    EXPECT_EQ(server.output().find("secret-ba5e"), std::string::npos);
}

TEST_F(HnsLeagues, BadBodiesAreProblemsNamingTheKey) {
    const auto plain = post_league(server->port(), kLongLeague, {{"Content-Type", "text/plain"}});
    EXPECT_EQ(plain.status, 415U);
    const auto command = post_league(server->port(), R"({"entrants":[{"name":"a","kind":"cmd:touch /tmp/x"},{"name":"b","kind":"builtin:idle"}],"matches":1})");
    EXPECT_EQ(command.status, 400U);
    EXPECT_EQ(league_problem(command), "command-refused");
    EXPECT_NE(command.body.find("a server never runs a command"), std::string::npos) << command.body;
    // Nor calls a URL a league names (issue 41): numeric entrants play through hschool-hns league.
    const auto numeric = post_league(server->port(), R"({"entrants":[{"name":"a","kind":"numeric:http://10.0.0.1/actions"},{"name":"b","kind":"builtin:teacher"}],"matches":1})");
    EXPECT_EQ(numeric.status, 400U);
    EXPECT_EQ(league_problem(numeric), "numeric-refused");
    EXPECT_NE(numeric.body.find("a server never calls a policy URL a client names"), std::string::npos) << numeric.body;
    const auto file = post_league(server->port(), R"({"entrants":[{"name":"a","kind":"prompt:/etc/passwd"},{"name":"b","kind":"builtin:idle"}],"matches":1})");
    EXPECT_EQ(league_problem(file), "file-refused");
    const auto over = post_league(server->port(), R"({"entrants":[{"name":"a","kind":"builtin:idle"},{"name":"b","kind":"builtin:idle"}],"matches":1001})");
    EXPECT_EQ(over.status, 400U);
    EXPECT_NE(over.body.find("matches"), std::string::npos);
    EXPECT_EQ(league_problem(post_league(server->port(), "{")), "invalid-json");
    EXPECT_EQ(http_request(server->port(), "GET", "/api/hns/leagues/l7").status, 404U);
    EXPECT_EQ(http_request(server->port(), "DELETE", "/api/hns/leagues/zzz").status, 404U);
    EXPECT_TRUE(parse(http_request(server->port(), "GET", "/api/hns/leagues").body).as_object().at("leagues").as_array().empty());
}

TEST_F(HnsLeagues, LiveMatchesKeepPlayingBesideARunningLeague) {
    const std::string league = started_league(server->port(), kLongLeague);
    until_league_played(server->port(), league, 1);
    const std::string match = create_match(server->port(), R"({"variant":"certification","bots":6})");
    ASSERT_FALSE(match.empty());
    EXPECT_EQ(play_out(server->port(), match), 1000) << "the live match ended normally";
    EXPECT_EQ(match_json(server->port(), match).at("phase"), "finished");
    const auto during = league_json(server->port(), league);
    EXPECT_EQ(during.at("state"), "running");
    EXPECT_EQ(http_request(server->port(), "DELETE", "/api/hns/leagues/" + league).status, 204U);
}

class HnsLeagueBudgets : public HnsLeagues {
protected:
    std::vector<std::string> extra() override {
        return {"--hns-max-leagues", "2", "--hns-max-leagues-per-ip", "1", "--hns-max-league-matches", "1000"};
    }
};

TEST_F(HnsLeagueBudgets, OneAddressRunsAtMostItsShare) {
    const std::string first = started_league(server->port(), kLongLeague);
    const auto second = post_league(server->port(), kLongLeague);
    EXPECT_EQ(second.status, 429U) << second.body;
    EXPECT_EQ(league_problem(second), "too-many-leagues-per-address");
    EXPECT_TRUE(second.headers.count("retry-after"));
    EXPECT_NE(http_request(server->port(), "GET", "/metrics").body.find(R"(hschool_hns_refused_total{reason="leagues_per_address"} 1)"),
              std::string::npos);
    // Stopping the first frees the place.
    EXPECT_EQ(http_request(server->port(), "DELETE", "/api/hns/leagues/" + first).status, 204U);
    const std::string third = started_league(server->port(), kLongLeague);
    EXPECT_EQ(http_request(server->port(), "DELETE", "/api/hns/leagues/" + third).status, 204U);
}

class HnsLeagueTotal : public HnsLeagues {
protected:
    std::vector<std::string> extra() override { return {"--hns-max-leagues", "2", "--hns-max-leagues-per-ip", "0"}; }
};

TEST_F(HnsLeagueTotal, TheServerRunsAtMostItsLeaguesInAll) {
    const std::string a = started_league(server->port(), kLongLeague);
    const std::string b = started_league(server->port(), kLongLeague);
    const auto third = post_league(server->port(), kLongLeague);
    EXPECT_EQ(third.status, 503U) << third.body;
    EXPECT_EQ(league_problem(third), "too-many-leagues");
    EXPECT_TRUE(third.headers.count("retry-after"));
    EXPECT_NE(http_request(server->port(), "GET", "/metrics").body.find("hschool_hns_leagues_running 2"), std::string::npos);
    for (const auto& id : {a, b}) EXPECT_EQ(http_request(server->port(), "DELETE", "/api/hns/leagues/" + id).status, 204U);
}

class HnsLeagueMatchCap : public HnsLeagues {
protected:
    std::vector<std::string> extra() override { return {"--hns-max-league-matches", "10"}; }
};

TEST_F(HnsLeagueMatchCap, ALeagueOverTheMatchBudgetIsRefused) {
    // 3 entrants: 3 pairings x 4 = 12 matches, over 10.
    const auto over = post_league(server->port(), R"({"entrants":[{"name":"a","kind":"builtin:idle"},{"name":"b","kind":"builtin:idle"},)"
                                                  R"({"name":"c","kind":"builtin:idle"}],"matches":4})");
    EXPECT_EQ(over.status, 400U);
    EXPECT_EQ(league_problem(over), "too-many-league-matches");
    EXPECT_NE(over.body.find("12"), std::string::npos) << over.body;
}

class HnsLeagueOwners : public HnsLeagues {
protected:
    std::vector<std::string> extra() override {
        return {"--access", "owners", "--admin-token-file", (dir.path() / "admin.token").string()};
    }
    std::string admin() {
        std::string s = read_file(dir.path() / "admin.token");
        while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
        return s;
    }
};

TEST_F(HnsLeagueOwners, AStrangerCannotStopALeagueItsOwnerStopsItWithAPartialTable) {
    std::string mine_token, theirs_token;
    const std::string mine = started_league(server->port(), kLongLeague, &mine_token);
    const std::string theirs = started_league(server->port(), kLongLeague, &theirs_token);
    ASSERT_EQ(mine_token.size(), 64U) << "owners mode hands out a token, once";
    EXPECT_EQ(http_request(server->port(), "GET", "/api/hns/leagues/" + mine).body.find(mine_token), std::string::npos);
    const std::string path = "/api/hns/leagues/" + mine;
    const auto none = http_request(server->port(), "DELETE", path);
    EXPECT_EQ(none.status, 401U);
    EXPECT_EQ(league_problem(none), "unauthorized");
    const auto stranger = http_request(server->port(), "DELETE", path, "", {{"Authorization", "Bearer " + theirs_token}});
    EXPECT_EQ(stranger.status, 403U);
    EXPECT_EQ(league_problem(stranger), "forbidden");
    EXPECT_EQ(league_json(server->port(), mine).at("state"), "running");

    until_league_played(server->port(), mine, 2);
    EXPECT_EQ(http_request(server->port(), "DELETE", path, "", {{"Authorization", "Bearer " + mine_token}}).status, 204U);
    const auto stopped = until_league_settles(server->port(), mine);
    ASSERT_FALSE(stopped.empty());
    EXPECT_EQ(stopped.at("state"), "stopped");
    const auto played = league_number(stopped, "progress", "played");
    EXPECT_GE(played, 2);
    EXPECT_LT(played, 1000);
    EXPECT_EQ(stopped.at("table").as_object().at("state"), "stopped");
    EXPECT_EQ(static_cast<std::int64_t>(stopped.at("table").as_object().at("results").as_array().size()), played);
    // Its matches stay served, and the owner's token deletes one like any match of theirs.
    const std::string match(stopped.at("table").as_object().at("results").as_array()[0].as_object().at("replay").as_string());
    EXPECT_EQ(http_request(server->port(), "GET", "/api/hns/matches/" + match + "/replay").status, 200U);
    // The operator may forget anyone's league.
    EXPECT_EQ(http_request(server->port(), "DELETE", path, "", {{"Authorization", "Bearer " + theirs_token}}).status, 403U);
    EXPECT_EQ(http_request(server->port(), "DELETE", path, "", {{"Authorization", "Bearer " + admin()}}).status, 204U);
    EXPECT_EQ(http_request(server->port(), "GET", path).status, 404U);
    EXPECT_EQ(http_request(server->port(), "DELETE", "/api/hns/leagues/" + theirs, "", {{"Authorization", "Bearer " + admin()}}).status, 204U);
}

}  // namespace
}  // namespace hschool::test::hns
