// The pure parts of live matches: the POST body, the config a variant and keys make, the match
// view's JSON both ways, and the replay transport keys.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "server/hns/hub/hub.hpp"
#include "server/hns/contract/match_view.hpp"
#include "server/hns/streams/replay_viewer.hpp"

namespace hschool::server::hns {
namespace {

TEST(HnsCreateRequest, AnEmptyBodyIsTheDefaultVariantWithoutBots) {
    auto parsed = parse_create_request("");
    ASSERT_TRUE(std::holds_alternative<CreateRequest>(parsed));
    EXPECT_EQ(std::get<CreateRequest>(parsed).variant, "default");
    EXPECT_EQ(std::get<CreateRequest>(parsed).bots, 0);
}

TEST(HnsCreateRequest, EveryFieldIsCheckedAndTheErrorNamesIt) {
    struct Case {
        const char* body;
        const char* names;
    };
    for (const Case& c : {Case{"[1]", "JSON object"}, Case{"{", "JSON object"}, Case{R"({"variant":1})", "variant"},
                          Case{R"({"bots":-1})", "bots"}, Case{R"({"bots":7})", "bots"}, Case{R"({"bots":2.5})", "bots"},
                          Case{R"({"config":[]})", "config"}, Case{R"({"colour":"red"})", "colour"},
                          Case{"\xff\xfe", "JSON object"}}) {
        auto parsed = parse_create_request(c.body);
        ASSERT_TRUE(std::holds_alternative<HubError>(parsed)) << c.body;
        EXPECT_EQ(std::get<HubError>(parsed).status, 400U);
        EXPECT_NE(std::get<HubError>(parsed).detail.find(c.names), std::string::npos) << std::get<HubError>(parsed).detail;
    }
    auto ok = parse_create_request(R"({"variant":"certification","bots":6,"config":{"seed":7}})");
    ASSERT_TRUE(std::holds_alternative<CreateRequest>(ok));
    EXPECT_EQ(std::get<CreateRequest>(ok).bots, 6);
    EXPECT_EQ(std::get<CreateRequest>(ok).config_json, R"({"seed":7})");
}

TEST(HnsBuildConfig, VariantsAndKeysMakeAConfigWithItsRoom) {
    auto built = build_config(CreateRequest{"certification", R"({"crates":3})", 0});
    ASSERT_TRUE(std::holds_alternative<sim::hns::GameConfig>(built));
    const auto& config = std::get<sim::hns::GameConfig>(built);
    EXPECT_EQ(config.seed, 42);
    EXPECT_EQ(config.crates, 3);
    EXPECT_FALSE(config.mapSpec.empty());
    // An unpinned seed is drawn (31 bits), never the reference's "unpinned" marker.
    auto drawn = build_config(CreateRequest{"default", "", 0});
    ASSERT_TRUE(std::holds_alternative<sim::hns::GameConfig>(drawn));
    EXPECT_NE(std::get<sim::hns::GameConfig>(drawn).seed, sim::hns::kUnpinnedSeed);
    EXPECT_LE(std::get<sim::hns::GameConfig>(drawn).seed, 0x7FFFFFFF);
}

TEST(HnsBuildConfig, BadVariantsAndKeysAreNamed) {
    for (const auto& [request, names] : std::vector<std::pair<CreateRequest, std::string>>{
             {CreateRequest{"nope", "", 0}, "variant"},
             {CreateRequest{"default", R"({"crates":"many"})", 0}, "crates"},
             {CreateRequest{"default", R"({"crates":-1})", 0}, "crates"},
             {CreateRequest{"default", R"({"roomPool":"moon"})", 0}, "roomPool"},
             {CreateRequest{"default", R"({"unknownKey":1})", 0}, "unknownKey"}}) {
        auto built = build_config(request);
        ASSERT_TRUE(std::holds_alternative<HubError>(built)) << names;
        EXPECT_NE(std::get<HubError>(built).detail.find(names), std::string::npos) << std::get<HubError>(built).detail;
    }
}

TEST(HnsMatchView, SurvivesItsOwnJsonAndReportsResultsOnlyWhenAsked) {
    MatchView v;
    v.id = "m7";
    v.variant = "warren";
    v.phase = "finished";
    v.game = 2;
    v.tick = 949;
    v.finished_at_ms = 1234;
    v.end_reason = "complete";
    v.results_json = R"({"finalTick":949})";
    v.seats.push_back(SeatView{0, "ann", "manual", "manual", "hider", true});
    const std::string text = match_view_json(v, true);
    const auto parsed = boost::json::parse(text).as_object();
    EXPECT_EQ(parsed.at("results").as_object().at("finalTick").as_int64(), 949);
    EXPECT_FALSE(boost::json::parse(match_view_json(v, false)).as_object().contains("results"));
    MatchView back;
    ASSERT_TRUE(match_view_from_json(text, back));
    EXPECT_EQ(back.id, "m7");
    EXPECT_EQ(back.tick, 949);
    EXPECT_EQ(back.finished_at_ms, 1234);
    ASSERT_EQ(back.seats.size(), 1U);
    EXPECT_EQ(back.seats[0].identity, "ann");
    EXPECT_FALSE(back.seats[0].connected);  // nobody plays an archived seat
    for (const char* bad : {"", "[]", "{\"id\":1}", "{\"seats\":[1],\"id\":\"m1\"}", "not json"}) EXPECT_FALSE(match_view_from_json(bad, back)) << bad;
}

TEST(HnsTransport, KeysPlayPauseStepSeekAndChangeSpeed) {
    Transport t;
    apply_transport_text(t, " ", 10, 949);
    EXPECT_FALSE(t.playing);
    apply_transport_text(t, "p", 10, 949);
    EXPECT_TRUE(t.playing);
    apply_transport_text(t, "P", 10, 949);
    EXPECT_FALSE(t.playing);
    apply_transport_text(t, "s:500", 10, 949);
    EXPECT_EQ(t.seek_to, 500);
    t.seek_to = -1;
    apply_transport_text(t, "s:99999", 10, 949);
    EXPECT_EQ(t.seek_to, 949);  // clamped to the end
    t.seek_to = -1;
    for (const char* bad : {"s:", "s:-", "s:12x", "s:1e3"}) {
        apply_transport_text(t, bad, 10, 949);
        EXPECT_EQ(t.seek_to, -1) << bad;
    }
    apply_transport_text(t, "b", 10, 949);
    EXPECT_EQ(t.seek_to, 9);
    apply_transport_text(t, ".", 10, 949);
    EXPECT_EQ(t.seek_to, 9 + kReplayForwardTicks);
    apply_transport_text(t, ",", 10, 949);
    EXPECT_EQ(t.seek_to, 0);
    apply_transport_text(t, "e", 10, 949);
    EXPECT_EQ(t.seek_to, 949);
    apply_transport_text(t, "6", 10, 949);
    EXPECT_EQ(t.speed_index, 5);
    apply_transport_text(t, "++++", 10, 949);
    EXPECT_EQ(t.speed_index, 5);
    apply_transport_text(t, "--------", 10, 949);
    EXPECT_EQ(t.speed_index, 0);
    apply_transport_text(t, "r", 10, 949);
    EXPECT_TRUE(t.loop);
    apply_transport_text(t, std::string(4096, 'x'), 10, 949);  // unknown keys change nothing
    EXPECT_EQ(t.speed_index, 0);
}

}  // namespace
}  // namespace hschool::server::hns
