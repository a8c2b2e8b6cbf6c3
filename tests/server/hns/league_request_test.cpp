// The body of POST /api/hns/leagues (issue 33): hostile input is a 400 naming the key, never a
// crash; a server never runs a command nor reads a file a client names.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "league/schedule.hpp"
#include "server/hns/leagues/league_request.hpp"

namespace hschool::server::hns {
namespace {

const LeagueRequestLimits kLeagueTestLimits{1000, std::nullopt};
const std::string kTwoBuiltins =
    R"({"entrants":[{"name":"a","kind":"builtin:burrow"},{"name":"b","kind":"builtin:random"}],"matches":3})";

LeagueRequest parsed_league(const std::string& body, LeagueRequestLimits limits = kLeagueTestLimits) {
    auto parsed = parse_league_request(body, limits);
    if (auto* e = std::get_if<HubError>(&parsed)) ADD_FAILURE() << body << " -> " << e->detail;
    return std::holds_alternative<LeagueRequest>(parsed) ? std::get<LeagueRequest>(parsed) : LeagueRequest{};
}

HubError league_error(const std::string& body, LeagueRequestLimits limits = kLeagueTestLimits) {
    auto parsed = parse_league_request(body, limits);
    if (std::holds_alternative<LeagueRequest>(parsed)) {
        ADD_FAILURE() << "accepted: " << body.substr(0, 200);
        return {};
    }
    const auto error = std::get<HubError>(parsed);
    EXPECT_EQ(error.status, 400U) << body.substr(0, 200);
    return error;
}

std::string with_entrants(const std::string& entrants, const std::string& rest = R"("matches":2)") {
    return R"({"entrants":[)" + entrants + "]," + rest + "}";
}

const std::string kBurrow = R"({"name":"b","kind":"builtin:burrow"})";

TEST(LeagueRequest, TwoBuiltInsWithTheDefaults) {
    const auto request = parsed_league(kTwoBuiltins);
    ASSERT_EQ(request.entrants.size(), 2U);
    EXPECT_EQ(request.entrants[0].name, "a");
    EXPECT_EQ(entrant_kind_text(request.entrants[0]), "builtin:burrow");
    EXPECT_EQ(entrant_kind_text(request.entrants[1]), "builtin:random");
    EXPECT_EQ(request.matches, 3);
    EXPECT_EQ(request.variant, "default");
    EXPECT_FALSE(request.seed.has_value()) << "no seed: the server draws one";
    EXPECT_EQ(request.planned(), 3);
}

TEST(LeagueRequest, VariantSeedAndEveryBuiltIn) {
    const auto request = parsed_league(
        R"({"variant":"certification","seed":-7,"matches":24,"entrants":[{"name":"b","kind":"builtin:burrow"},)"
        R"({"name":"s","kind":"builtin:scatter"},{"name":"i.1","kind":"builtin:idle"},{"name":"R_2-x","kind":"builtin:random"}]})");
    EXPECT_EQ(request.variant, "certification");
    ASSERT_TRUE(request.seed.has_value());
    EXPECT_EQ(*request.seed, -7);
    EXPECT_EQ(request.planned(), 6 * 24);
    EXPECT_FALSE(parsed_league(R"({"seed":null,"matches":1,"entrants":[)" + kBurrow + R"(,{"name":"c","kind":"builtin:idle"}]})")
                     .seed.has_value());
}

TEST(LeagueRequest, APromptEntrantComesAsTextAndNeverNamesAFile) {
    const auto request = parsed_league(with_entrants(kBurrow + R"(,{"name":"p","kind":"prompt","prompt":"Hide behind crates.\nLock doors."})"));
    ASSERT_EQ(request.entrants.size(), 2U);
    EXPECT_TRUE(is_prompt_entrant(request.entrants[1]));
    EXPECT_EQ(entrant_kind_text(request.entrants[1]), "prompt");
    EXPECT_EQ(request.entrants[1].kind.arg, kInlinePromptArg) << "the text is checked, not kept";

    const auto file = league_error(with_entrants(kBurrow + R"(,{"name":"p","kind":"prompt:/etc/passwd"})"));
    EXPECT_EQ(file.code, "file-refused");
    EXPECT_NE(file.detail.find("entrants[1].kind"), std::string::npos) << file.detail;
    EXPECT_EQ(league_error(with_entrants(kBurrow + R"(,{"name":"p","kind":"prompt"})")).code, "missing-field");
    EXPECT_NE(league_error(with_entrants(kBurrow + R"(,{"name":"p","kind":"prompt","prompt":""})")).detail.find("entrants[1].prompt"),
              std::string::npos);
    EXPECT_NE(league_error(with_entrants(kBurrow + R"(,{"name":"p","kind":"builtin:idle","prompt":"x"})")).detail.find("entrants[1].prompt"),
              std::string::npos)
        << "only a prompt entrant has a prompt";
}

TEST(LeagueRequest, ACommandIsNeverRun) {
    for (const std::string kind : {"cmd:./my-seat {url}", "cmd:rm -rf /", "cmd:"}) {
        const auto error = league_error(with_entrants(kBurrow + R"(,{"name":"c","kind":")" + kind + R"("})"));
        EXPECT_EQ(error.code, "command-refused") << kind;
        EXPECT_NE(error.detail.find("a server never runs a command"), std::string::npos) << error.detail;
        EXPECT_NE(error.detail.find("entrants[1].kind"), std::string::npos) << error.detail;
    }
}

TEST(LeagueRequest, UnknownKindsNameTheKey) {
    for (const std::string kind : {"builtin:chess", "builtin:", "burrow", "BUILTIN:burrow", "", "http://x", "builtin:burrow "}) {
        const auto error = league_error(with_entrants(kBurrow + R"(,{"name":"c","kind":")" + kind + R"("})"));
        EXPECT_EQ(error.code, "unknown-kind") << kind;
        EXPECT_NE(error.detail.find("entrants[1].kind"), std::string::npos) << error.detail;
    }
}

TEST(LeagueRequest, WithAModelConfiguredPromptMatchesHaveTheirOwnBudget) {
    // Three entrants, one a prompt: two of the three pairings have a prompt seat.
    const std::string three = kBurrow + R"(,{"name":"p","kind":"prompt","prompt":"hi"},{"name":"r","kind":"builtin:random"})";
    const LeagueRequestLimits model{1000, 10};
    const auto request = parsed_league(with_entrants(three, R"("matches":5)"), model);
    EXPECT_EQ(request.planned(), 15);
    EXPECT_EQ(request.prompt_matches(), 10);
    EXPECT_EQ(request.prompts.at("p"), "hi") << "the text is kept for the model, by entrant";
    const auto over = league_error(with_entrants(three, R"("matches":6)"), model);
    EXPECT_EQ(over.code, "too-many-model-matches");
    EXPECT_NE(over.detail.find("12 matches with a prompt entrant"), std::string::npos) << over.detail;
    EXPECT_NE(over.detail.find("over its 10"), std::string::npos) << over.detail;
    EXPECT_EQ(league_error(with_entrants(three, R"("matches":1)"), LeagueRequestLimits{1000, 0}).code, "too-many-model-matches")
        << "0: no prompt entrants on this server";
    // Built-ins never ask the model; with no model configured there is no model budget.
    EXPECT_EQ(parsed_league(with_entrants(kBurrow + R"(,{"name":"r","kind":"builtin:random"})", R"("matches":600)"), model).matches, 600);
    EXPECT_EQ(parsed_league(with_entrants(three, R"("matches":300)")).matches, 300);
    // Two prompt entrants: every pairing but none has one.
    const auto two = parsed_league(with_entrants(three + R"(,{"name":"q","kind":"prompt","prompt":"ho"})", R"("matches":1)"));
    EXPECT_EQ(two.planned(), 6);
    EXPECT_EQ(two.prompt_matches(), 5);
}

TEST(LeagueRequest, DuplicateNamesAndBadNames) {
    EXPECT_EQ(league_error(with_entrants(kBurrow + "," + kBurrow)).code, "duplicate-name");
    for (const std::string& name : std::vector<std::string>{"", "a b", "a/b", "é", std::string(33, 'x'), "a=b", "a\\u0000"}) {
        const auto error = league_error(with_entrants(kBurrow + R"(,{"name":")" + name + R"(","kind":"builtin:idle"})"));
        EXPECT_NE(error.detail.find("entrants[1].name"), std::string::npos) << name << ": " << error.detail;
    }
    (void)parsed_league(with_entrants(kBurrow + R"(,{"name":")" + std::string(32, 'x') + R"(","kind":"builtin:idle"})"));
}

TEST(LeagueRequest, TooFewOrTooManyEntrants) {
    EXPECT_NE(league_error(with_entrants(kBurrow)).detail.find("entrants"), std::string::npos);
    EXPECT_NE(league_error(with_entrants("")).detail.find("entrants"), std::string::npos);
    std::string many;
    for (int i = 0; i < 17; ++i) many += std::string(i ? "," : "") + R"({"name":"e)" + std::to_string(i) + R"(","kind":"builtin:idle"})";
    EXPECT_NE(league_error(with_entrants(many, R"("matches":1)")).detail.find("2 to 16"), std::string::npos);
}

TEST(LeagueRequest, MatchesOutOfRangeOrOverTheLeagueBudget) {
    for (const std::string matches : {"0", "-1", "1001", "1.5", "2.0", "1e3", "\"5\"", "true", "null", "[3]", "18446744073709551615"}) {
        const auto error = league_error(with_entrants(kBurrow + R"(,{"name":"c","kind":"builtin:idle"})", R"("matches":)" + matches));
        EXPECT_EQ(error.detail.rfind("matches:", 0), 0U) << matches << ": " << error.detail;
    }
    // 4 entrants: 6 pairings; 6 x 200 = 1200 over a budget of 1000.
    std::string four;
    for (int i = 0; i < 4; ++i) four += std::string(i ? "," : "") + R"({"name":"e)" + std::to_string(i) + R"(","kind":"builtin:idle"})";
    const auto over = league_error(with_entrants(four, R"("matches":200)"));
    EXPECT_EQ(over.code, "too-many-league-matches");
    EXPECT_EQ(over.detail.rfind("matches:", 0), 0U) << over.detail;
    EXPECT_NE(over.detail.find("1200"), std::string::npos) << over.detail;
    EXPECT_EQ(parsed_league(with_entrants(four, R"("matches":166)")).planned(), 996);
    EXPECT_EQ(league_error(with_entrants(four, R"("matches":2)"), {11, true}).code, "too-many-league-matches");
    EXPECT_EQ(league_error(R"({"entrants":[)" + kBurrow + R"(,{"name":"c","kind":"builtin:idle"}]})").code, "missing-field");
}

TEST(LeagueRequest, WrongTypesAndUnknownKeys) {
    const std::string two = kBurrow + R"(,{"name":"c","kind":"builtin:idle"})";
    const std::pair<std::string, std::string> cases[] = {
        {R"({"entrants":{},"matches":1})", "entrants"},
        {R"({"entrants":"a,b","matches":1})", "entrants"},
        {R"({"entrants":[1,2],"matches":1})", "entrants[0]"},
        {R"({"entrants":[{"name":1,"kind":"builtin:idle"},{"name":"c","kind":"builtin:idle"}],"matches":1})", "entrants[0].name"},
        {R"({"entrants":[{"name":"a","kind":null},{"name":"c","kind":"builtin:idle"}],"matches":1})", "entrants[0].kind"},
        {R"({"entrants":[{"name":"a"},{"name":"c","kind":"builtin:idle"}],"matches":1})", "entrants[0].kind"},
        {R"({"entrants":[{"kind":"builtin:idle"},{"name":"c","kind":"builtin:idle"}],"matches":1})", "entrants[0].name"},
        {R"({"entrants":[{"name":"a","kind":"prompt","prompt":7},{"name":"c","kind":"builtin:idle"}],"matches":1})", "entrants[0].prompt"},
        {R"({"entrants":[{"name":"a","kind":"builtin:idle","command":"ls"},{"name":"c","kind":"builtin:idle"}],"matches":1})", "entrants[0].command"},
        {with_entrants(two, R"("matches":1,"variant":"chess")"), "variant"},
        {with_entrants(two, R"("matches":1,"variant":7)"), "variant"},
        {with_entrants(two, R"("matches":1,"seed":"7")"), "seed"},
        {with_entrants(two, R"("matches":1,"seed":1.5)"), "seed"},
        {with_entrants(two, R"("matches":1,"seed":18446744073709551615)"), "seed"},
        {with_entrants(two, R"("matches":1,"jobs":4)"), "jobs"},
        {with_entrants(two, R"("matches":1,"out":"/tmp")"), "out"},
    };
    for (const auto& [body, key] : cases) {
        const auto error = league_error(body);
        EXPECT_EQ(error.detail.rfind(key, 0), 0U) << body << " -> " << error.detail;
    }
}

TEST(LeagueRequest, TruncatedAtEveryByte) {
    const std::string body = with_entrants(kBurrow + R"(,{"name":"p","kind":"prompt","prompt":"Hide.\n"})", R"("matches":3,"seed":7)");
    (void)parsed_league(body);
    for (std::size_t n = 0; n < body.size(); ++n) {
        const auto error = league_error(body.substr(0, n));
        EXPECT_FALSE(error.code.empty()) << n;
    }
}

TEST(LeagueRequest, GarbageAndOversizedBodies) {
    for (const std::string body : {"", "null", "[]", "7", "\"x\"", "{", "}{", "{\"entrants\":[}", "\xff\xfe{}", "{}{}"}) {
        const auto error = league_error(body);
        EXPECT_FALSE(error.code.empty()) << body;
    }
    EXPECT_EQ(league_error(std::string(100000, '[')).code, "body-too-large");
    EXPECT_EQ(league_error(std::string(60000, '[') + std::string(60000, ']')).code, "body-too-large");
    EXPECT_EQ(league_error(std::string(30000, '[') + std::string(30000, ']')).code, "invalid-json") << "too deep";
    EXPECT_EQ(league_error(kTwoBuiltins + std::string(kMaxLeagueBodyBytes, ' ')).code, "body-too-large");
    const std::string big(kMaxLeaguePromptBytes + 1, 'x');
    const auto prompt = league_error(with_entrants(kBurrow + R"(,{"name":"p","kind":"prompt","prompt":")" + big + R"("})"));
    EXPECT_EQ(prompt.detail.rfind("entrants[1].prompt", 0), 0U) << prompt.detail;
    (void)parsed_league(with_entrants(kBurrow + R"(,{"name":"p","kind":"prompt","prompt":")" + big.substr(1) + R"("})"));
    for (const std::string bad : {"\\u0001", "\\u007f", "\xc3\x28", "\xed\xa0\x80"}) {
        const auto error = league_error(with_entrants(kBurrow + R"(,{"name":"p","kind":"prompt","prompt":"a)" + bad + R"("})"));
        EXPECT_EQ(error.detail.rfind("entrants[1].prompt", 0) == 0 || error.code == "invalid-json", true) << error.detail;
    }
}

TEST(LeagueRequest, EchoesOfHostileTextStayShortAndPrintable) {
    const std::string key(1000, 'k');
    const auto error = league_error(with_entrants(kBurrow + R"(,{"name":"c","kind":"builtin:idle"})", "\"" + key + R"(":1,"matches":1)"));
    EXPECT_LT(error.detail.size(), 200U);
    const auto kind = league_error(with_entrants(kBurrow + R"(,{"name":"c","kind":"x\u0007y"})"));
    EXPECT_EQ(kind.detail.find('\x07'), std::string::npos);
}

}  // namespace
}  // namespace hschool::server::hns
