// /client/player, /client/global and /client/replay (spec §2.1): the runner requires 2xx without
// following redirects before it starts the seats. /client/player checks slot and token with the
// /player upgrade's texts and does not take the seat.
#include "league_support.hpp"

namespace hschool::test::league {
namespace {

class HnsClientPages : public ::testing::Test {
protected:
    void SetUp() override {
        files = std::make_unique<LeagueFiles>(dir.path());
        std::ofstream(files->config) << league_config();
        auto args = isolated_server_args(dir);
        std::ofstream(dir.path() / "web" / "index.html") << "<!doctype html><html><head><title>t</title></head><body></body></html>";
        port = free_port();
        server = std::make_unique<ServerProcess>(args, dropin_launch(*files, port));
        ASSERT_TRUE(server->started()) << server->output();
    }

    TempDir dir;
    std::unique_ptr<LeagueFiles> files;
    std::uint16_t port = 0;
    std::unique_ptr<ServerProcess> server;
};

TEST_F(HnsClientPages, TheThreePagesAre200PagesOfTheBuiltClientNamingTheirView) {
    const auto player = http_request(port, "GET", "/client/player?slot=0&token=token-0");
    EXPECT_EQ(player.status, 200U);
    EXPECT_EQ(player.headers.count("location"), 0U);
    EXPECT_NE(player.headers.at("content-type").find("text/html"), std::string::npos);
    EXPECT_NE(player.body.find("<title>t</title>"), std::string::npos) << "the built client's own page";
    EXPECT_NE(player.body.find(R"(<meta name="hschool-page" content="player" data-match="m1">)"), std::string::npos) << player.body;
    const auto global = http_request(port, "GET", "/client/global");
    EXPECT_EQ(global.status, 200U);
    EXPECT_NE(global.body.find(R"(content="global" data-match="m1")"), std::string::npos);
    const auto replay = http_request(port, "GET", "/client/replay");
    EXPECT_EQ(replay.status, 200U);
    EXPECT_NE(replay.body.find(R"(content="replay")"), std::string::npos);
}

TEST_F(HnsClientPages, ThePlayerPageAnswersTheUpgradesRefusals) {
    const auto wrong = http_request(port, "GET", "/client/player?slot=0&token=token-1");
    EXPECT_EQ(wrong.status, 403U);
    EXPECT_EQ(wrong.body, "Player token does not match configured slot 0.\n");
    EXPECT_EQ(upgrade_request(port, "/player?slot=0&token=token-1").body, wrong.body) << "the same text as the upgrade";
    const auto out_of_range = http_request(port, "GET", "/client/player?slot=40&token=token-0");
    EXPECT_EQ(out_of_range.status, 403U);
    EXPECT_EQ(out_of_range.body, "Player slot must be between 0 and 31.\n");
    const auto stranger = http_request(port, "GET", "/client/player?slot=1&token=nobody");
    EXPECT_EQ(stranger.status, 403U);
    EXPECT_EQ(stranger.body, upgrade_request(port, "/player?slot=1&token=nobody").body);
    EXPECT_EQ(http_request(port, "GET", "/client/player?slot=0&token=%zz").status, 400U);
}

TEST_F(HnsClientPages, LoadingThePlayerPageLeavesTheSeatFree) {
    for (int i = 0; i < 3; ++i) ASSERT_EQ(http_request(port, "GET", "/client/player?slot=0&token=token-0").status, 200U);
    // The seat's own program still gets in and is seated (the lobby shows it by its configured name).
    auto seat = open_socket(port, "/player?slot=0&token=token-0");
    ASSERT_TRUE(seat);
    ASSERT_TRUE(next_binary(*seat));
    const bool seated = eventually([&] {
        const auto seats = match_json(port, "m1").at("seats").as_array();
        return !seats.empty() && seats[0].as_object().at("identity") == "alpha";
    });
    EXPECT_TRUE(seated) << json::serialize(match_json(port, "m1"));
}

TEST_F(HnsClientPages, HostileQueriesGetAnAnswerAndTheServerStaysUp) {
    const std::vector<std::string> queries{
        "?slot=0&token=" + std::string(6000, 'x'),        // a huge token: refused, not echoed
        "?slot=0&token=%00",                              // NUL
        "?slot=0&token=%E2%80%AE",                        // a bidi control
        "?slot=-1&token=token-0", "?slot=99999999999999999999&token=token-0", "?slot=0x1&token=token-0",
        "?slot=0&slot=1&token=token-0&token=token-1",      // repeated keys
        "?" + std::string(3000, '&'),                     // empty pairs
        "?%ZZ=1",
    };
    for (const auto& q : queries) {
        const auto r = http_request(port, "GET", "/client/player" + q);
        EXPECT_TRUE(r.status == 200 || r.status == 400 || r.status == 403 || r.status == 431) << q.substr(0, 60) << " → " << r.status;
        EXPECT_LT(r.body.size(), 4096U) << "a refusal never echoes the query";
    }
    // An oversized request line is the HTTP layer's 431, as for any route.
    EXPECT_EQ(http_request(port, "GET", "/client/global?match=" + std::string(20000, 'm')).status, 431U);
    EXPECT_EQ(http_request(port, "GET", "/healthz").body, "healthy");
    EXPECT_EQ(http_request(port, "GET", "/client/player?slot=0&token=token-0").status, 200U);
}

TEST(HnsClientPagesAnyMode, WithoutABuiltClientTheyStillAnswer200) {
    TempDir dir;
    ServerProcess server(isolated_server_args(dir));  // an empty web root: no index.html
    ASSERT_TRUE(server.started()) << server.output();
    for (const char* page : {"/client/player?slot=0", "/client/global", "/client/replay"}) {
        const auto response = http_request(server.port(), "GET", page);
        EXPECT_EQ(response.status, 200U) << page << ": " << response.body;
        EXPECT_NE(response.body.find("hschool-page"), std::string::npos) << page;
    }
    // A ?match= that is not an id is never written into the page.
    const auto odd = http_request(server.port(), "GET", "/client/global?match=%22%3E%3Cscript%3E");
    EXPECT_EQ(odd.status, 200U);
    EXPECT_EQ(odd.body.find("<script>"), std::string::npos);
    EXPECT_NE(odd.body.find(R"(data-match="")"), std::string::npos);
    EXPECT_EQ(http_request(server.port(), "GET", "/client/player?slot=1&match=m999").status, 404U);
}

}  // namespace
}  // namespace hschool::test::league
