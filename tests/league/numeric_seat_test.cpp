// A numeric player's turn without sockets (tools/hns/numeric_seat): the POST body it builds from a
// decision (the reference's session, seat, decision_id, 356 values and 107-entry mask), the order it
// plays for a legal answer, and the errors for everything else a decision or a policy may send.
// Also the numeric:URL and builtin:teacher entrant kinds.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "league/entrant.hpp"
#include "league_test_support.hpp"
#include "numeric_seat.hpp"
#include "sim/hns/bridge_episode.hpp"
#include "sim/hns/match.hpp"
#include "sim/hns/room_files.hpp"
#include "sim/hns/string_seed.hpp"
#include "sim/hns/teacher_seat.hpp"
#include "sim/hns/verify.hpp"

namespace hns = hschool::sim::hns;
namespace tools = hschool::tools::hns;
namespace json = boost::json;

namespace {

// The first decision of the warren bridge episode, framed as the server frames a decision.
std::string decision_frame(int deadline_ms = 16000) {
    auto config = hns::resolve_room_spec(hns::bridge_config(hns::bridge_seed_of("0")));
    auto episode = hns::BridgeEpisode::create(*config);
    return R"({"type":"decision","turn":0,"seat":0,"deadline_ms":)" + std::to_string(deadline_ms) + R"(,"observation":)" +
           episode->seat_view() + "}";
}

}  // namespace

TEST(NumericSeat, TheBodyCarriesTheValuesAndMaskOfTheDecision) {
    const auto ask = tools::numeric_ask(decision_frame(), "hns:1:2:3");
    ASSERT_TRUE(ask) << ask.error;
    const auto body = json::parse(ask->body).as_object();
    EXPECT_EQ(body.at("session"), "hns:1:2:3");
    EXPECT_EQ(body.at("seat"), 0);
    EXPECT_EQ(body.at("decision_id"), 0);  // game 1, turn 0
    ASSERT_EQ(body.at("values").as_array().size(), 356u);
    EXPECT_EQ(body.at("values").as_array()[17], 0.0);  // the margin, a float
    ASSERT_EQ(body.at("action_mask").as_array().size(), 107u);
    EXPECT_EQ(body.at("action_mask").as_array()[0], true);
    EXPECT_EQ(body.at("action_mask").as_array()[106], false);  // warren has 7 objects, not 16
    EXPECT_EQ(ask->timeout_seconds, 15);                        // the deadline less a second
    EXPECT_EQ(tools::numeric_ask(decision_frame(0), "s")->timeout_seconds, 1);
    const auto order = tools::numeric_order(*ask, 200, R"({"actions":[2]})");
    ASSERT_TRUE(order) << order.error;
    EXPECT_EQ(*order, R"({"intent":"hide","at":"p1"})");
}

TEST(NumericSeat, EveryBadAnswerIsAnError) {
    const auto ask = tools::numeric_ask(decision_frame(), "s");
    ASSERT_TRUE(ask);
    const std::pair<int, const char*> bad[] = {
        {500, R"({"actions":[0]})"}, {404, ""},         {200, ""},          {200, "not json"},      {200, "[0]"},
        {200, R"({"actions":0})"},   {200, R"({"actions":[]})"}, {200, R"({"actions":[0,1]})"}, {200, R"({"actions":[-1]})"},
        {200, R"({"actions":[107]})"}, {200, R"({"actions":[106]})"}, {200, R"({"actions":[1.0]})"}, {200, R"({"actions":["0"]})"},
        {200, R"({"actions":[99999999999999999999]})"},
    };
    for (const auto& [status, body] : bad) EXPECT_FALSE(tools::numeric_order(*ask, status, body)) << status << " " << body;
    EXPECT_FALSE(tools::numeric_order(*ask, 200, R"({"actions":[0],"pad":")" + std::string(70000, 'x') + "\"}"));
}

TEST(NumericSeat, EveryBadDecisionIsAnError) {
    const std::string good = decision_frame();
    const std::string bad[] = {
        "", "{", "[]", R"({"type":"decision"})", R"({"type":"decision","turn":0,"seat":0,"observation":[]})",
        R"({"type":"decision","turn":0,"seat":0,"observation":{}})",
        R"({"type":"decision","turn":-1,"seat":0,"observation":{"game":1}})",
        R"({"type":"decision","turn":"0","seat":0,"observation":{"game":1}})",
        // A view with a wall of the wrong shape, an object box of text, a huge coordinate.
        std::string(good).replace(good.find("[0,0,720,16]"), 12, "[0,0,720]"),
        std::string(good).replace(good.find("\"box\":[144,40,64,64]"), 20, "\"box\":\"144\""),
        std::string(good).replace(good.find("\"pos\":[80,320]"), 14, "\"pos\":[80,1e300]"),
    };
    for (const auto& d : bad) EXPECT_FALSE(tools::numeric_ask(d, "s")) << d.substr(0, 120);
}

TEST(NumericSeat, NumericAndTeacherEntrantKinds) {
    const auto numeric = hschool::league::parse_entrant("n=numeric:http://127.0.0.1:9000/actions");
    ASSERT_TRUE(numeric) << numeric.error();
    EXPECT_EQ(numeric->kind.family, hschool::league::KindFamily::Numeric);
    EXPECT_EQ(numeric->kind.text(), "numeric:http://127.0.0.1:9000/actions");
    EXPECT_FALSE(numeric->kind.is_baseline());
    EXPECT_FALSE(hschool::league::parse_entrant("n=numeric:"));
    EXPECT_FALSE(hschool::league::parse_entrant("n=numeric:ftp://x/actions"));
    EXPECT_FALSE(hschool::league::parse_entrant("n=numeric:file:///etc/passwd"));
    const auto teacher = hschool::league::parse_entrant("t=builtin:teacher");
    ASSERT_TRUE(teacher) << teacher.error();
    EXPECT_EQ(teacher->kind.family, hschool::league::KindFamily::Builtin);
}

TEST(NumericSeat, TheTeacherPlaysHeadlessAndItsOrdersAreCatalogEntries) {
    // Headless: teacher against burrow; every teacher directive is an order the catalog holds.
    auto config = hns::variant_config("certification");
    ASSERT_TRUE(config);
    config->seed = 9;
    auto pinned = hns::resolve_room_spec(*config);
    ASSERT_TRUE(pinned) << pinned.error;
    hns::MatchOptions options;
    for (int s = 0; s < 6; s += 2) options.policies[static_cast<std::size_t>(s)] = hns::teacher_seat();
    auto outcome = hns::run_match(*pinned, options);
    ASSERT_TRUE(outcome) << outcome.error;
    const auto replay = hns::parse_replay(outcome->replay);
    ASSERT_TRUE(replay) << replay.error;
    EXPECT_TRUE(hns::verify_replay(*replay).ok);
    int teacher_turns = 0, differs = 0;
    for (const auto& chat : replay->chats) {
        if (chat.message.rfind("{\"k\":\"directive\"", 0) != 0) continue;
        const auto record = json::parse(chat.message).as_object();
        const auto intent = std::string(record.at("intent").as_string());
        if (record.at("slot").as_int64() % 2 != 0) continue;
        ++teacher_turns;
        // The catalog's intents; its pushes always name a target, its hides and moves an anchor.
        EXPECT_TRUE(intent == "watch" || intent == "chase" || intent == "hide" || intent == "move_to" || intent == "lock" ||
                    intent == "unlock" || intent == "vault" || intent == "push") << chat.message;
        if (intent == "push") {
            EXPECT_FALSE(record.at("to").is_null()) << chat.message;
        }
        if (intent == "hide" || intent == "move_to") {
            EXPECT_FALSE(record.at("at").as_string().empty()) << chat.message;
        }
        differs += record.at("say") != "" ? 1 : 0;
    }
    EXPECT_GT(teacher_turns, 20);
    EXPECT_EQ(differs, 0);  // a catalog order says nothing
}

TEST(NumericSeat, TheSeatProgramReadsThePlayersVariables) {
    // COWORLD_PLAYER_WS_URL stands in for --url and PLAYER_NUMERIC_URL for --numeric-url, as in the
    // reference's player: a bad policy URL from the environment is refused before any dial, a good
    // one dials the socket the environment names (closed here: exit 1 after one attempt).
    ::setenv("COWORLD_PLAYER_WS_URL", "ws://127.0.0.1:1/player?slot=0&token=t", 1);
    ::setenv("PLAYER_NUMERIC_URL", "ftp://127.0.0.1/actions", 1);
    const auto refused = league_test::run_tool({"seat"});
    ::setenv("PLAYER_NUMERIC_URL", "http://127.0.0.1:1/actions", 1);
    const auto dialled = league_test::run_tool({"seat", "--connect-attempts", "1"});
    ::unsetenv("PLAYER_NUMERIC_URL");
    const auto two_modes = league_test::run_tool({"seat", "--numeric-url", "http://127.0.0.1:1/actions", "--builtin", "idle"});
    ::unsetenv("COWORLD_PLAYER_WS_URL");
    const auto no_url = league_test::run_tool({"seat"});
    EXPECT_EQ(refused.code, 2);
    EXPECT_NE(refused.output.find("must start with http:// or https://"), std::string::npos) << refused.output;
    EXPECT_EQ(dialled.code, 1);
    EXPECT_NE(dialled.output.find("never accepted a connection"), std::string::npos) << dialled.output;
    EXPECT_EQ(two_modes.code, 2);
    EXPECT_NE(two_modes.output.find("choose exactly one player policy mode"), std::string::npos) << two_modes.output;
    EXPECT_EQ(no_url.code, 2);
    EXPECT_NE(no_url.output.find("no --url and no COWORLD_PLAYER_WS_URL"), std::string::npos) << no_url.output;
}
