// The league table and league.json: invariants on many synthetic leagues, order independence,
// mirror matches, and the exact field set of issue 33 point 2.
#include <gtest/gtest.h>

#include <set>

#include "league/table_json.hpp"
#include "league_test_support.hpp"

using namespace league_test;

namespace {

const std::vector<std::pair<std::string, std::string>> kFive{
    {"burrow", "builtin:burrow"}, {"scatter", "builtin:scatter"}, {"idle", "builtin:idle"},
    {"random", "builtin:random"}, {"v7", "builtin:burrow"}};

std::set<std::string> keys(const boost::json::object& o) {
    std::set<std::string> out;
    for (const auto& kv : o) out.insert(std::string(kv.key()));
    return out;
}

std::string render(const std::vector<league::Entrant>& entrants, std::vector<league::MatchResult> results) {
    const auto table = league::build_table(entrants, std::move(results),
                                           {"synthetic", "2", 9, 6, 60, league::LeagueState::Finished});
    EXPECT_TRUE(table) << table.error();
    return table ? league::pretty_json(league::table_json(*table)) : "";
}

}  // namespace

TEST(LeagueTable, InvariantsHoldOnManyLeagues) {
    const auto entrants = builtins(kFive);
    Draws draws(77);
    for (int trial = 0; trial < 30; ++trial) {
        auto games = simulate_games({-150, 0, 20, 90, 40}, 0.2 + trial * 0.05, 1 + trial % 7, draws);
        games.resize(draws.below(games.size() + 1));  // a league stopped anywhere, even before its first match
        const auto table = league::build_table(entrants, as_results(games, entrants),
                                               {"synthetic", "2", trial, 7, 70, league::LeagueState::Stopped});
        ASSERT_TRUE(table) << table.error();
        EXPECT_EQ(table->played, static_cast<int>(games.size()));
        int pairMatches = 0, entrantMatches = 0;
        for (const auto& e : table->entrants) {
            EXPECT_LE(e.low, e.rating) << e.name;
            EXPECT_LE(e.rating, e.high) << e.name;
            EXPECT_EQ(e.wins + e.draws + e.losses, e.matches) << e.name;
            EXPECT_EQ(e.provisional, e.matches == 0 || e.high - e.low >= league::kProvisionalWidth) << e.name;
            EXPECT_EQ(e.meanScore.has_value(), e.matches > 0);
            ASSERT_TRUE(e.vor.has_value());
            EXPECT_LE(e.vor->low, e.vor->value);
            EXPECT_LE(e.vor->value, e.vor->high);
            entrantMatches += e.matches;
        }
        for (const auto& p : table->pairs) {
            EXPECT_EQ(p.aWins + p.bWins + p.draws, p.matches);
            EXPECT_EQ(p.meanMargin.has_value(), p.matches > 0);
            if (p.meanMargin) {
                EXPECT_LE(p.margin.low, *p.meanMargin);
                EXPECT_LE(*p.meanMargin, p.margin.high);
            }
            pairMatches += p.matches;
        }
        EXPECT_EQ(pairMatches, table->played);
        EXPECT_EQ(entrantMatches, 2 * table->played);
        double mean = 0;
        for (const auto& e : table->entrants) mean += e.rating / 5;
        EXPECT_NEAR(mean, league::kRatingAnchor, 1e-6);
    }
}

TEST(LeagueTable, TheOrderResultsArriveInChangesNothing) {
    const auto entrants = builtins(kFive);
    Draws draws(3);
    auto results = as_results(simulate_games({-100, 10, 30, 60, 0}, 0.3, 6, draws), entrants);
    const std::string reference = render(entrants, results);
    for (int trial = 0; trial < 3; ++trial) {
        for (std::size_t k = results.size() - 1; k > 0; --k) std::swap(results[k], results[draws.below(k + 1)]);
        EXPECT_EQ(render(entrants, results), reference);
    }
}

TEST(LeagueTable, AMirrorMatchMovesNothing) {
    const auto entrants = builtins(kFive);
    Draws draws(4);
    auto results = as_results(simulate_games({-100, 10, 30, 60, 0}, 0.3, 6, draws), entrants);
    auto withMirror = results;
    withMirror.push_back(synthetic(999, "v7", "v7", 0.4));
    withMirror.push_back(synthetic(1000, "idle", "idle", 0));
    auto a = boost::json::parse(render(entrants, results)).as_object();
    auto b = boost::json::parse(render(entrants, withMirror)).as_object();
    EXPECT_EQ(a.at("entrants"), b.at("entrants"));
    EXPECT_EQ(a.at("pairs"), b.at("pairs"));
    EXPECT_EQ(a.at("method"), b.at("method"));
    EXPECT_EQ(b.at("results").as_array().size(), a.at("results").as_array().size() + 2);  // listed, not counted
}

TEST(LeagueTable, LeagueJsonHasExactlyTheDocumentedFields) {
    const auto entrants = builtins(kFive);
    std::vector<league::MatchResult> results{synthetic(1, "burrow", "idle", 0.5), synthetic(2, "idle", "burrow", 0)};
    results[0].replay = "0001.cowldhns";
    results[1].programs[1] = "exit 0";
    const auto doc = boost::json::parse(render(entrants, results)).as_object();
    EXPECT_EQ(keys(doc), (std::set<std::string>{"version", "state", "variant", "gameVersion", "seed", "matchesPerPairing",
                                                "played", "planned", "method", "entrants", "pairs", "results"}));
    EXPECT_EQ(doc.at("gameVersion").as_string(), "2");
    EXPECT_EQ(keys(doc.at("method").as_object()), (std::set<std::string>{"name", "model", "prior", "interval", "level",
                                                                         "provisionalWidth", "scale", "noiseSigma",
                                                                         "clearPairsRespected"}));
    EXPECT_EQ(doc.at("method").at("provisionalWidth").as_double(), league::kProvisionalWidth);
    EXPECT_EQ(doc.at("played").as_int64(), 2);
    EXPECT_EQ(doc.at("planned").as_int64(), 60);
    const auto& e = doc.at("entrants").as_array();
    ASSERT_EQ(e.size(), 5u);
    EXPECT_EQ(keys(e[0].as_object()), (std::set<std::string>{"name", "kind", "rating", "low", "high", "matches", "wins",
                                                             "draws", "losses", "meanScore", "provisional", "vor"}));
    EXPECT_EQ(e[0].at("kind").as_string(), "builtin:burrow");
    EXPECT_EQ(keys(e[0].at("vor").as_object()), (std::set<std::string>{"baseline", "value", "low", "high"}));
    EXPECT_TRUE(e[1].at("meanScore").is_null());  // scatter has not played
    const auto& p = doc.at("pairs").as_array();
    EXPECT_EQ(p.size(), 10u);
    EXPECT_EQ(keys(p[0].as_object()),
              (std::set<std::string>{"a", "b", "matches", "aWins", "bWins", "draws", "meanMargin", "low", "high"}));
    const auto& r = doc.at("results").as_array();
    EXPECT_EQ(keys(r[0].as_object()),
              (std::set<std::string>{"id", "seed", "variant", "gameVersion", "seats", "scores", "replay"}));
    EXPECT_EQ(keys(r[1].as_object()),
              (std::set<std::string>{"id", "seed", "variant", "gameVersion", "seats", "scores", "replay", "programs"}));
    EXPECT_EQ(r[1].at("programs").as_array()[1].as_string(), "exit 0");
    EXPECT_TRUE(r[1].at("programs").as_array()[0].is_null());
}

TEST(LeagueTable, NoBaselineNoValueOverReplacement) {
    const auto entrants = builtins({{"a", "builtin:idle"}, {"b", "builtin:random"}});
    const auto doc = boost::json::parse(render(entrants, {synthetic(1, "a", "b", 0.5)})).as_object();
    for (const auto& e : doc.at("entrants").as_array()) EXPECT_TRUE(e.at("vor").is_null());
}

TEST(LeagueTable, RefusesAResultNamingNoEntrant) {
    const auto entrants = builtins({{"a", "builtin:idle"}, {"b", "builtin:random"}});
    const auto table = league::build_table(entrants, {synthetic(1, "a", "ghost", 0.5)}, {});
    ASSERT_FALSE(table);
    EXPECT_NE(table.error().find("ghost"), std::string::npos);
}

TEST(LeagueTable, RefusesToRateTwoGameVersionsTogether) {
    const auto entrants = builtins({{"a", "builtin:idle"}, {"b", "builtin:random"}});
    std::vector<league::MatchResult> results{synthetic(1, "a", "b", 0.5), synthetic(2, "b", "a", 0.25)};
    results[1].gameVersion = "1";
    const auto table = league::build_table(entrants, results, {"synthetic", "2", 1, 1, 2, league::LeagueState::Finished});
    ASSERT_FALSE(table);
    EXPECT_NE(table.error().find("game version 1"), std::string::npos) << table.error();
    results[1].gameVersion = "2";
    EXPECT_TRUE(league::build_table(entrants, results, {"synthetic", "2", 1, 1, 2, league::LeagueState::Finished}));
}

TEST(LeagueTable, NumbersReadAsDecimals) {
    const auto text = league::pretty_json(boost::json::parse(R"({"a":1523.4,"b":-0.327,"c":[1,2.5,3.0],"d":"x"})"));
    EXPECT_EQ(text, "{\n  \"a\": 1523.4,\n  \"b\": -0.327,\n  \"c\": [1, 2.5, 3.0],\n  \"d\": \"x\"\n}\n");
}
