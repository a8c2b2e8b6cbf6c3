// /health follows the server's state: 503 while starting or draining, 200 while serving.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "server/metrics.hpp"
#include "server/metrics.hpp"
#include "server/schools/store_health.hpp"

namespace hschool::server {
namespace {

net::HttpResponse get(const net::HttpRouter& router, const std::string& path) {
    net::HttpResponse out;
    router.handle(net::HttpRequest{"GET", path, "", "", "", "", "", "", ""}, [&](net::HttpResponse r) { out = std::move(r); });
    return out;
}

TEST(Health, IsUnavailableWhileStartingOrDrainingAndOkWhileServing) {
    std::atomic<Health> health{Health::Starting};
    Metrics metrics;
    net::HttpRouter router;
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

TEST(Health, IsUnavailableWithTheReasonWhileStoreWritesFailAndRecovers) {
    std::atomic<Health> health{Health::Serving};
    Metrics metrics;
    StoreHealth store(metrics);
    net::HttpRouter router;
    add_ops_routes(router, health, metrics, {&store, true});
    EXPECT_EQ(get(router, "/health").body, R"({"status":"serving","access":"open"})");

    store.record("clock write", store::StoreError{store::StoreErrorKind::Busy, "database is locked \xFF"});
    auto response = get(router, "/health");
    EXPECT_EQ(response.status, 503U);
    EXPECT_EQ(response.content_type, "application/json");
    boost::system::error_code ec;
    const auto body = boost::json::parse(response.body, ec);  // valid UTF-8 JSON even with a stray byte
    ASSERT_FALSE(ec) << response.body;
    EXPECT_EQ(body.at("status").as_string(), "store-error");
    EXPECT_NE(std::string(body.at("reason").as_string()).find("database is locked"), std::string::npos) << response.body;

    health = Health::Draining;  // shutting down says so, whatever the store does
    EXPECT_EQ(get(router, "/health").body, R"({"status":"draining"})");
    health = Health::Serving;
    store.record("clock write", std::nullopt);
    response = get(router, "/health");
    EXPECT_EQ(response.status, 200U);
    EXPECT_EQ(response.body, R"({"status":"serving","access":"open"})");
    EXPECT_NE(get(router, "/metrics").body.find("hschool_store_errors_total 1"), std::string::npos);
}

TEST(Health, SaysWhenNoFilesAreServedButStaysUp) {
    std::atomic<Health> health{Health::Serving};
    Metrics metrics;
    net::HttpRouter router;
    add_ops_routes(router, health, metrics, {nullptr, false});
    const auto response = get(router, "/health");
    EXPECT_EQ(response.status, 200U);
    EXPECT_EQ(response.body, R"({"status":"serving","access":"open","webRoot":"none"})");
}

TEST(Health, NamesThePromptSeatsModelTransportWhenOneIsLive) {
    std::atomic<Health> health{Health::Serving};
    Metrics metrics;
    net::HttpRouter router;
    add_ops_routes(router, health, metrics, {nullptr, true, "open", "sidecar"});
    EXPECT_EQ(get(router, "/health").body, R"({"status":"serving","access":"open","llm":"sidecar"})");
}

TEST(Metrics, CountWhatTheServerReports) {
    std::atomic<Health> health{Health::Serving};
    Metrics metrics;
    net::HttpRouter router;
    add_ops_routes(router, health, metrics);
    metrics.connection_opened(tag_of(WireVersion::None));
    metrics.connection_spoke(tag_of(WireVersion::Arena));
    metrics.frames_dropped(tag_of(WireVersion::Arena), 3);
    metrics.steps_dropped(36);
    metrics.steps_caught_up(4);
    metrics.close_sent(1009);
    const auto body = get(router, "/metrics").body;
    EXPECT_NE(body.find("hschool_connections{version=\"1\"} 1"), std::string::npos) << body;
    EXPECT_NE(body.find("hschool_connections{version=\"none\"} 0"), std::string::npos);
    EXPECT_NE(body.find("hschool_frames_dropped_total{version=\"1\"} 3"), std::string::npos);
    EXPECT_NE(body.find("hschool_steps_dropped_total 36"), std::string::npos);
    EXPECT_NE(body.find("hschool_steps_caught_up_total 4"), std::string::npos);
    EXPECT_NE(body.find("hschool_closes_total{code=\"1009\"} 1"), std::string::npos);
}

}  // namespace
}  // namespace hschool::server
