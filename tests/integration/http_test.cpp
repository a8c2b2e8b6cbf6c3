// Plain HTTP on the game port: health, metrics, errors, limits and the web client's files.
#include <fstream>

#include "wire.hpp"

namespace hschool::test {
namespace {

class Http : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_TRUE(server.started()) << server.output();
    }
    static std::vector<std::string> args_with_web_root(const TempDir& dir) {
        std::filesystem::create_directories(dir.path() / "web" / "assets");
        std::ofstream(dir.path() / "web" / "index.html") << "<!doctype html><title>HSchool</title>";
        std::ofstream(dir.path() / "web" / "assets" / "app-1234.js") << "console.log('hi')";
        std::ofstream(dir.path() / "secret.txt") << "not for the web";
        return isolated_server_args(dir);
    }
    TempDir dir;
    ServerProcess server{args_with_web_root(dir)};
};

TEST_F(Http, HealthIsServingJson) {
    const auto response = http_request(server.port(), "GET", "/health");
    EXPECT_EQ(response.status, 200U);
    EXPECT_EQ(response.headers.at("content-type"), "application/json");
    EXPECT_EQ(response.body, R"({"status":"serving","access":"open"})");
}

TEST_F(Http, MetricsListEveryFamilyInPrometheusText) {
    auto client = WsClient::connect(server.port());
    ASSERT_TRUE(client);
    ASSERT_TRUE(client->send(schools_hello()));
    ASSERT_TRUE(next_v4_of<v4::Welcome>(*client));
    const auto response = http_request(server.port(), "GET", "/metrics");
    EXPECT_EQ(response.status, 200U);
    EXPECT_NE(response.headers.at("content-type").find("text/plain"), std::string::npos);
    for (const char* series : {"hschool_connections{version=\"4\"} 1", "hschool_frames_in_total{version=\"4\"}",
                               "hschool_bytes_in_total", "hschool_frames_out_total{version=\"4\"}", "hschool_bytes_out_total",
                               "hschool_frames_dropped_total", "hschool_frames_rejected_total",
                               "hschool_tick_duration_seconds_bucket", "hschool_tick_duration_seconds_count",
                               "hschool_tick_overruns_total", "hschool_steps_dropped_total", "hschool_steps_caught_up_total",
                               "hschool_http_requests_total"}) {
        EXPECT_NE(response.body.find(series), std::string::npos) << series;
    }
}

TEST_F(Http, ClosesAreCountedByCode) {
    auto client = WsClient::connect(server.port());
    ASSERT_TRUE(client);
    ASSERT_TRUE(client->send_text("nope"));
    EXPECT_EQ(close_code(*client), 1007);
    const auto body = http_request(server.port(), "GET", "/metrics").body;
    EXPECT_NE(body.find("hschool_closes_total{code=\"1007\"} 1"), std::string::npos) << body;
    EXPECT_NE(body.find("hschool_frames_rejected_total{version=\"none\"} 1"), std::string::npos) << body;
}

TEST_F(Http, UnknownPathsAreProblem404) {
    for (const char* path : {"/api/nothing", "/metricsx", "/missing.js", "/health/deep"}) {
        const auto response = http_request(server.port(), "GET", path);
        EXPECT_EQ(response.status, 404U) << path;
        EXPECT_EQ(response.headers.at("content-type"), "application/problem+json") << path;
        EXPECT_NE(response.body.find("\"code\":\"not-found\""), std::string::npos) << response.body;
    }
}

TEST_F(Http, WrongMethodsAre405WithAllow) {
    const auto response = http_request(server.port(), "DELETE", "/health");
    EXPECT_EQ(response.status, 405U);
    EXPECT_EQ(response.headers.at("allow"), "GET");
    EXPECT_NE(response.body.find("\"status\":405"), std::string::npos);
    const auto post_file = http_request(server.port(), "POST", "/index.html", "x");
    EXPECT_EQ(post_file.status, 405U);
}

TEST_F(Http, HeadAnswersHeadersOnly) {
    const auto response = http_request(server.port(), "HEAD", "/health");
    EXPECT_EQ(response.status, 200U);
    EXPECT_EQ(response.headers.at("content-length"), std::to_string(std::string(R"({"status":"serving","access":"open"})").size()));
    EXPECT_TRUE(response.body.empty());
}

TEST_F(Http, OversizedBodiesAre413) {
    const auto response = http_request(server.port(), "POST", "/api/schools", std::string(70 * 1024, 'x'),
                                       {{"Content-Type", "application/json"}});
    EXPECT_EQ(response.status, 413U);
    EXPECT_NE(response.body.find("payload-too-large"), std::string::npos);
}

TEST_F(Http, OversizedHeadersAre431) {
    const auto response = http_request(server.port(), "GET", "/health", "", {{"X-Filler", std::string(9000, 'a')}});
    EXPECT_EQ(response.status, 431U);
}

TEST_F(Http, GarbageRequestsAre400AndClosed) {
    const auto result = raw_exchange(server.port(), "THIS IS NOT HTTP\r\n\r\n", 5s);
    EXPECT_NE(result.received.find("400"), std::string::npos) << result.received;
    EXPECT_TRUE(result.closed_by_peer);
}

TEST_F(Http, ASlowRequestIsCutOff) {
    // Headers that never finish: the server hangs up after its request time-out, with no answer.
    const auto result = raw_exchange(server.port(), "GET /health HTTP/1.1\r\nHost: x\r\n", 20s);
    EXPECT_TRUE(result.closed_by_peer);
    EXPECT_TRUE(result.received.empty());
    EXPECT_GE(result.elapsed, 9s);
}

TEST_F(Http, ServesTheWebClient) {
    const auto index = http_request(server.port(), "GET", "/");
    EXPECT_EQ(index.status, 200U);
    EXPECT_EQ(index.headers.at("content-type"), "text/html; charset=utf-8");
    EXPECT_NE(index.body.find("HSchool"), std::string::npos);
    const auto script = http_request(server.port(), "GET", "/assets/app-1234.js");
    EXPECT_EQ(script.status, 200U);
    EXPECT_EQ(script.headers.at("content-type"), "text/javascript; charset=utf-8");
    EXPECT_NE(script.headers.at("cache-control").find("immutable"), std::string::npos);
}

TEST_F(Http, NeverServesFilesOutsideTheWebRoot) {
    for (const char* path : {"/../secret.txt", "/%2e%2e/secret.txt", "/assets/../../secret.txt", "/..%2fsecret.txt"}) {
        const auto response = http_request(server.port(), "GET", path);
        EXPECT_NE(response.status, 200U) << path;
        EXPECT_EQ(response.body.find("not for the web"), std::string::npos) << path;
    }
}

}  // namespace
}  // namespace hschool::test
