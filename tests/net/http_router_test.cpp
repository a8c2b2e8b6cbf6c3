#include <gtest/gtest.h>

#include "net/http_router.hpp"

namespace hschool::net {
namespace {

HttpResponse call(const HttpRouter& router, std::string method, std::string path) {
    HttpResponse out;
    router.handle(HttpRequest{std::move(method), std::move(path), "", "", "", "", "", "", ""}, [&](HttpResponse r) { out = std::move(r); });
    return out;
}

HttpRouter sample_router() {
    HttpRouter router;
    router.add("GET", "/api/schools", [](const HttpRequest&, const PathParams&, Respond respond) { respond({200, "text/plain", "list", {}}); });
    router.add("POST", "/api/schools", [](const HttpRequest&, const PathParams&, Respond respond) { respond({201, "text/plain", "made", {}}); });
    router.add("DELETE", "/api/schools/{id}", [](const HttpRequest&, const PathParams& p, Respond respond) { respond({204, "", p.at(0), {}}); });
    return router;
}

TEST(HttpRouter, MatchesMethodAndPathAndCapturesSegments) {
    const auto router = sample_router();
    EXPECT_EQ(call(router, "GET", "/api/schools").body, "list");
    EXPECT_EQ(call(router, "POST", "/api/schools").status, 201U);
    EXPECT_EQ(call(router, "DELETE", "/api/schools/17").body, "17");
    EXPECT_EQ(call(router, "GET", "/api/schools/").body, "list");  // a trailing slash is the same path
}

TEST(HttpRouter, KnownPathWithWrongMethodIs405WithAllow) {
    const auto response = call(sample_router(), "PUT", "/api/schools");
    EXPECT_EQ(response.status, 405U);
    ASSERT_EQ(response.headers.size(), 1U);
    EXPECT_EQ(response.headers[0].first, "Allow");
    EXPECT_EQ(response.headers[0].second, "GET, POST");
}

TEST(HttpRouter, HeadIsServedByGet) { EXPECT_EQ(call(sample_router(), "HEAD", "/api/schools").status, 200U); }

TEST(HttpRouter, UnknownPathIs404Problem) {
    const auto response = call(sample_router(), "GET", "/api/schools/1/extra");
    EXPECT_EQ(response.status, 404U);
    EXPECT_EQ(response.content_type, "application/problem+json");
}

TEST(HttpRouter, FallbackServesOnlyNonApiGetAndHead) {
    auto router = sample_router();
    router.set_fallback([](const HttpRequest&, const PathParams&, Respond respond) { respond({200, "text/html", "file", {}}); });
    EXPECT_EQ(call(router, "GET", "/index.html").body, "file");
    EXPECT_EQ(call(router, "POST", "/index.html").status, 405U);
    EXPECT_EQ(call(router, "GET", "/api/unknown").status, 404U);  // the API never falls through to files
}

}  // namespace
}  // namespace hschool::net
