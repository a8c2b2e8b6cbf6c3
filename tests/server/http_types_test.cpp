#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "server/http_types.hpp"

namespace hschool::server {
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

}  // namespace
}  // namespace hschool::server
