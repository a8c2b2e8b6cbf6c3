#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "net/http_types.hpp"

namespace hschool::net {
namespace {

TEST(Problem, IsRfc7807WithCode) {
    const auto response = problem(409, "school-limit-reached", "School limit reached", "delete one first");
    EXPECT_EQ(response.status, 409U);
    EXPECT_EQ(response.content_type, "application/problem+json");
    const auto body = boost::json::parse(response.body).as_object();
    EXPECT_EQ(body.at("status").as_int64(), 409);
    EXPECT_EQ(body.at("code").as_string(), "school-limit-reached");
    EXPECT_EQ(body.at("title").as_string(), "School limit reached");
    EXPECT_EQ(body.at("detail").as_string(), "delete one first");
    EXPECT_TRUE(body.at("type").is_string());
}

TEST(Problem, DetailWithInvalidUtf8IsEscapedSoTheBodyStaysValidJson) {
    const auto response = problem(404, "not-found", "Not found", "no route for /api/\xFF\xC3(\xE2\x80 ok \xD0\xB6");
    boost::system::error_code ec;
    const auto body = boost::json::parse(response.body, ec);  // Boost.JSON refuses invalid UTF-8
    ASSERT_FALSE(ec) << ec.message();
    EXPECT_EQ(body.at("detail").as_string(), "no route for /api/\\xFF\\xC3(\\xE2\\x80 ok \xD0\xB6");
}

TEST(EscapeInvalidUtf8, KeepsValidTextAndMarksEachBadByte) {
    EXPECT_EQ(escape_invalid_utf8("Лицей №1 \xE2\x80\xAE"), "Лицей №1 \xE2\x80\xAE");  // valid, even if unclean
    EXPECT_EQ(escape_invalid_utf8("\xFF"), "\\xFF");
    EXPECT_EQ(escape_invalid_utf8("a\xC0\xAFz"), "a\\xC0\\xAFz");  // overlong '/': two bad bytes
    EXPECT_EQ(escape_invalid_utf8("\xF0\x9F\x98"), "\\xF0\\x9F\\x98");  // a truncated emoji
    EXPECT_EQ(escape_invalid_utf8(""), "");
}

TEST(Query, FindsAndDecodesParameters) {
    EXPECT_EQ(query_param("lang=en&mods=annex%2Cother", "mods"), "annex,other");
    EXPECT_EQ(query_param("lang=en&mods=annex", "lang"), "en");
    EXPECT_EQ(query_param("a=1+2", "a"), "1 2");
    EXPECT_EQ(query_param("lang", "lang"), "");
    EXPECT_EQ(query_param("", "lang"), "");
    EXPECT_EQ(query_param("x=%zz&lang=ru", "lang"), "ru");
}

TEST(PercentDecode, RejectsMalformedEscapes) {
    std::string out;
    EXPECT_TRUE(percent_decode("%41%42", out));
    EXPECT_EQ(out, "AB");
    EXPECT_FALSE(percent_decode("%4", out));
    EXPECT_FALSE(percent_decode("%", out));
    EXPECT_FALSE(percent_decode("%g1", out));
}

TEST(PercentDecode, PlusInAPathIsALiteralPlus) {
    std::string out;
    ASSERT_TRUE(percent_decode("/c++/a+b%2B", out));
    EXPECT_EQ(out, "/c++/a+b+");
    EXPECT_EQ(query_param("q=c%2B%2B+rocks", "q"), "c++ rocks");  // queries stay form-encoded
}

}  // namespace
}  // namespace hschool::net
