// /health follows the server's state: 503 while starting or draining, 200 while serving.
#include <gtest/gtest.h>

#include "server/metrics.hpp"
#include "server/ops_routes.hpp"

namespace hschool::server {
namespace {

HttpResponse get(const HttpRouter& router, const std::string& path) {
    HttpResponse out;
    router.handle(HttpRequest{"GET", path, "", "", ""}, [&](HttpResponse r) { out = std::move(r); });
    return out;
}

TEST(Health, IsUnavailableWhileStartingOrDrainingAndOkWhileServing) {
    std::atomic<Health> health{Health::Starting};
    Metrics metrics;
    HttpRouter router;
    add_ops_routes(router, health, metrics);
    auto response = get(router, "/health");
    EXPECT_EQ(response.status, 503U);
    EXPECT_EQ(response.body, R"({"status":"starting"})");
    health = Health::Serving;
    EXPECT_EQ(get(router, "/health").status, 200U);
    health = Health::Draining;
    response = get(router, "/health");
    EXPECT_EQ(response.status, 503U);
    EXPECT_EQ(response.body, R"({"status":"draining"})");
}

TEST(Metrics, CountWhatTheServerReports) {
    std::atomic<Health> health{Health::Serving};
    Metrics metrics;
    HttpRouter router;
    add_ops_routes(router, health, metrics);
    metrics.connection_opened(WireVersion::None);
    metrics.connection_promoted(WireVersion::Arena);
    metrics.frames_dropped(WireVersion::Arena, 3);
    metrics.steps_dropped(36);
    metrics.close_sent(1009);
    const auto body = get(router, "/metrics").body;
    EXPECT_NE(body.find("hschool_connections{version=\"1\"} 1"), std::string::npos) << body;
    EXPECT_NE(body.find("hschool_connections{version=\"none\"} 0"), std::string::npos);
    EXPECT_NE(body.find("hschool_frames_dropped_total{version=\"1\"} 3"), std::string::npos);
    EXPECT_NE(body.find("hschool_steps_dropped_total 36"), std::string::npos);
    EXPECT_NE(body.find("hschool_closes_total{code=\"1009\"} 1"), std::string::npos);
}

}  // namespace
}  // namespace hschool::server
