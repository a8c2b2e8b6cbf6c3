// Config (§3.1): defaults, the three variants, JSON in and out, and errors naming the key.
#include <gtest/gtest.h>

#include "hns_test_support.hpp"

using namespace hns_test;

TEST(HnsConfig, DefaultsAreTheReferenceConstants) {
    hns::GameConfig c;
    EXPECT_EQ(c.prepTicks(), 360);
    EXPECT_EQ(c.huntTicks(), 720);
    EXPECT_EQ(c.maxTicks(), 1080);
    EXPECT_EQ(c.maxSpeedFor(true), 387);
    EXPECT_EQ(c.maxSpeedFor(false), 704);
    EXPECT_EQ(hns::validate_config(c), "");
}

TEST(HnsConfig, VariantsByName) {
    auto cert = hns::variant_config("certification");
    ASSERT_TRUE(cert);
    EXPECT_EQ(cert->seed, 42);
    EXPECT_EQ(cert->roomPool, "warren");
    EXPECT_EQ(cert->prepTurns, 2);
    EXPECT_EQ(cert->huntTurns, 3);
    EXPECT_EQ(cert->startWaitTicks, 0);
    EXPECT_EQ(cert->gameOverTicks, 24);
    EXPECT_EQ(cert->wallClockBudgetSeconds, 480);
    auto hall = hns::variant_config("long-hall");
    ASSERT_TRUE(hall);
    EXPECT_EQ(hall->crates, 6);
    EXPECT_EQ(hall->panels, 3);
    EXPECT_EQ(hall->sightRange, 380);
    EXPECT_EQ(hall->prepTurns, 6);
    auto warren = hns::variant_config("warren");
    ASSERT_TRUE(warren);
    EXPECT_EQ(warren->roomPool, "all");
    EXPECT_EQ(warren->lobbyJoinTimeoutTicks, 4800);
    EXPECT_FALSE(hns::variant_config("arena"));
}

TEST(HnsConfig, ErrorsNameTheKey) {
    hns::GameConfig base;
    auto e = [&](const char* text) { return hns::apply_config_json(base, text).error; };
    EXPECT_EQ(e(R"({"crates": 7})").rfind("crates:", 0), 0u) << e(R"({"crates": 7})");
    EXPECT_EQ(e(R"({"crates": 1.5})"), "crates: must be an integer");
    EXPECT_EQ(e(R"({"turnTicks": "90"})"), "turnTicks: must be an integer");
    EXPECT_EQ(e(R"({"bogus": 1})"), "bogus: unknown key");
    EXPECT_EQ(e(R"({"fastMode": 1})"), "fastMode: must be a boolean");
    EXPECT_EQ(e(R"({"num_agents": 5})").rfind("num_agents:", 0), 0u);
    EXPECT_EQ(e(R"({"wallClockBudgetSeconds": 661})").rfind("wallClockBudgetSeconds:", 0), 0u);
    EXPECT_EQ(e(R"({"roomPool": "castle"})").rfind("roomPool:", 0), 0u);
    EXPECT_EQ(e(R"({"slots": [{"name": "x"}]})").rfind("slots[0].name", 0), 0u);
    EXPECT_EQ(e(R"({"mapSpec": {"name": "x"}})").rfind("mapSpec:", 0), 0u);
    EXPECT_EQ(e(R"({"prepTurns": 3, "maxTicks": 1080})").rfind("maxTicks:", 0), 0u);
    EXPECT_NE(e("[1,2]").find("must be a JSON object"), std::string::npos);
    EXPECT_NE(e("{").find("not JSON"), std::string::npos);
}

TEST(HnsConfig, PerSeatArrayErrorsNameTheEntry) {
    hns::GameConfig base;
    auto e = [&](const std::string& text) { return hns::apply_config_json(base, text).error; };
    // One entry more than there can be players.
    auto too_many = [](const char* key, const char* entry) {
        std::string text = std::string("{\"") + key + "\": [" + entry;
        for (int i = 0; i < hns::kMaxPlayers; ++i) text += std::string(",") + entry;
        return text + "]}";
    };
    EXPECT_EQ(e(R"({"tokens": "a"})"), "tokens: must be an array");
    EXPECT_EQ(e(too_many("tokens", "\"t\"")), "tokens: too many entries");
    EXPECT_EQ(e(R"({"tokens": ["a", 2]})"), "tokens[1]: must be a string");
    EXPECT_EQ(e(R"({"slots": [{}, {"token": "x"}], "tokens": ["", "y"]})"), "tokens[1]: conflicts with slots[1].token");
    EXPECT_EQ(e(R"({"players": {}})"), "players: must be an array");
    EXPECT_EQ(e(too_many("players", "{}")), "players: too many entries");
    EXPECT_EQ(e(R"({"players": [{"name": "a"}, 3]})"), "players[1]: must be an object");
    EXPECT_EQ(e(R"({"players": [{}]})"), "players[0].name: required");
    EXPECT_EQ(e(R"({"players": [{"name": 1}]})"), "players[0].name: must be a string");
    EXPECT_EQ(e(R"({"players": [{"name": ""}]})"), "players[0].name: must not be empty");
}

TEST(HnsConfig, EchoRoundTripsAndMatchesTheReplayEcho) {
    auto cert = hns::variant_config("certification");
    ASSERT_TRUE(cert);
    auto withPlayers = hns::apply_config_json(*cert, R"({"players":[{"name":"Cog1"},{"name":"Cog2"},{"name":"Cog3"},
        {"name":"Cog4"},{"name":"Cog5"},{"name":"Cog6"}],"slots":[{"team":"red"},{"team":"blue"},{"team":"red"},
        {"team":"blue"},{"team":"red"},{"team":"blue"}],"tokens":["","","","","",""]})");
    ASSERT_TRUE(withPlayers) << withPlayers.error;
    auto pinned = hns::resolve_room_spec(*withPlayers);
    ASSERT_TRUE(pinned) << pinned.error;
    const std::string echo = hns::config_to_json(*pinned);
    auto again = hns::apply_config_json(hns::GameConfig{}, echo);
    ASSERT_TRUE(again) << again.error;
    EXPECT_EQ(hns::config_to_json(*again), echo);
    // The reference's echo in cert_zero.cowldhns, byte for byte.
    const std::string replay = read_file(vector_dir() + "/cert_zero.cowldhns");
    const std::size_t len = static_cast<unsigned char>(replay[36]) | (static_cast<unsigned char>(replay[37]) << 8);
    EXPECT_EQ(echo, replay.substr(38, len));
}
