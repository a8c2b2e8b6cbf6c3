// Reading POST /api/schools bodies, ids and pack lists, without a server.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "server/schools/school_request.hpp"

namespace hschool::server {
namespace {

std::string code_of(const std::string& body) {
    const auto result = read_create_request(boost::json::parse(body));
    if (const auto* failure = std::get_if<net::HttpResponse>(&result))
        return std::string(boost::json::parse(failure->body).at("code").as_string());
    return "ok";
}

TEST(CreateRequest, ReadsEveryFieldAndDefaultsTheOptionalOnes) {
    const auto body = boost::json::parse(R"({"name":"Лицей","startDate":"2000-01-01T00:00:00Z","modIds":["annex"],"map":{"nodes":[]}})");
    const auto request = std::get<CreateRequest>(read_create_request(body));
    EXPECT_EQ(request.name, "Лицей");
    EXPECT_EQ(request.start_date_ms, 946684800000);
    EXPECT_EQ(request.extra_mods, std::vector<std::string>{"annex"});
    EXPECT_NE(request.map, nullptr);
    const auto minimal = std::get<CreateRequest>(read_create_request(boost::json::parse(R"({"name":"x","map":null})")));
    EXPECT_EQ(minimal.start_date_ms, sim::kDefaultStartDateMs);
    EXPECT_TRUE(minimal.extra_mods.empty());
    EXPECT_EQ(minimal.map, nullptr);
}

TEST(CreateRequest, WrongShapesAreInvalidBody) {
    for (const char* body : {R"([])", R"("name")", R"({})", R"({"name":null})", R"({"name":5})", R"({"name":"x","startDate":7})",
                             R"({"name":"x","modIds":"annex"})", R"({"name":"x","modIds":[1]})"}) {
        EXPECT_EQ(code_of(body), "invalid-body") << body;
    }
}

TEST(CreateRequest, NamesAreCheckedInCharactersNotBytes) {
    std::string forty, forty_one;
    for (int i = 0; i < 40; ++i) forty += "ж";
    forty_one = forty + "ж";
    EXPECT_EQ(code_of(R"({"name":")" + forty + R"("})"), "ok");
    EXPECT_EQ(code_of(R"({"name":")" + forty_one + R"("})"), "invalid-name");
    EXPECT_EQ(code_of(R"({"name":" \t "})"), "invalid-name");
    EXPECT_EQ(code_of(R"({"name":"a\u0007b"})"), "invalid-name");
    EXPECT_TRUE(name_problem("\xC3\x28").has_value());  // not UTF-8: refused, never thrown
}

TEST(CreateRequest, NamesFollowTheCleanTextRuleOfMapNodes) {
    EXPECT_EQ(code_of(R"({"name":"a\u0085b"})"), "invalid-name");  // C1 NEL
    EXPECT_EQ(code_of(R"({"name":"a\u009Fb"})"), "invalid-name");  // last C1 control
    EXPECT_EQ(code_of(R"({"name":"abc\u202Egnp.exe"})"), "invalid-name");  // right-to-left override
    EXPECT_EQ(code_of(R"({"name":"a\u2066b"})"), "invalid-name");  // left-to-right isolate
    EXPECT_EQ(code_of(R"({"name":"a\u00A0b"})"), "ok");  // a no-break space is printable
    EXPECT_EQ(code_of(R"({"name":"\u05E9\u05DC\u05D5\u05DD"})"), "ok");  // right-to-left letters are fine
}

TEST(CreateRequest, StartDatesOutsideTheCalendarAreRefused) {
    EXPECT_EQ(code_of(R"({"name":"x","startDate":"1900-01-01T00:00:00Z"})"), "ok");
    EXPECT_EQ(code_of(R"({"name":"x","startDate":"2999-12-31T23:59:59Z"})"), "ok");
    EXPECT_EQ(code_of(R"({"name":"x","startDate":"1899-12-31T23:59:59Z"})"), "invalid-start-date");
    EXPECT_EQ(code_of(R"({"name":"x","startDate":"3000-01-01T00:00:00Z"})"), "invalid-start-date");
    EXPECT_EQ(code_of(R"({"name":"x","startDate":"yesterday"})"), "invalid-start-date");
}

TEST(SchoolId, OnlyPositiveThirtyTwoBitDecimals) {
    EXPECT_EQ(parse_school_id("1"), 1);
    EXPECT_EQ(parse_school_id("2147483647"), 2147483647);
    for (const char* bad : {"", "0", "-1", "+1", "abc", "1e3", "2147483648", "99999999999", " 1"})
        EXPECT_FALSE(parse_school_id(bad).has_value()) << bad;
}

TEST(ModList, SplitsOnCommasAndDropsBlanks) {
    EXPECT_EQ(split_mods("annex, other,,x"), (std::vector<std::string>{"annex", "other", "x"}));
    EXPECT_TRUE(split_mods("").empty());
    EXPECT_TRUE(split_mods(",,").empty());
}

}  // namespace
}  // namespace hschool::server
