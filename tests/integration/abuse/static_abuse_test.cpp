// The web client's files under attack: no request path reaches a file outside the web root or a
// hidden one, an unusable --web-root stops the start instead of serving from somewhere else, and
// problem details never put invalid UTF-8 on the wire.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <boost/json.hpp>
#include <utf8cpp/utf8.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "server_process.hpp"
#include "ws_client.hpp"

namespace hschool::test::static_abuse {
namespace {

inline constexpr auto kFailedStartDeadline = 20s;  // the process must have exited by then

// A web root with a page, a hidden folder and a file that must never be served, next to a secret.
std::vector<std::string> server_args(const TempDir& dir) {
    std::filesystem::create_directories(dir.path() / "web" / ".git");
    std::ofstream(dir.path() / "web" / "index.html") << "<!doctype html><title>HSchool</title>";
    std::ofstream(dir.path() / "web" / "a+b.txt") << "a literal plus";
    std::ofstream(dir.path() / "web" / ".git" / "config") << "[core] hidden in the root";
    std::ofstream(dir.path() / "secret.txt") << "not for the web";
    return {"--data", (dir.path() / "hschool.db").string(), "--mods", (ServerProcess::source_dir() / "mods").string(),
            "--web-root", (dir.path() / "web").string(), "--log-level", "info"};
}

struct Exit {
    int code = -1;
    std::string output;
};

// Runs the server until it exits on its own (killed after the deadline: code 137).
Exit run_to_exit(const std::vector<std::string>& args) {
    std::string command = "timeout -s KILL " + std::to_string(kFailedStartDeadline.count()) + " '" +
                          ServerProcess::binary().string() + "' --address 127.0.0.1 --port 0";
    for (const auto& arg : args) command += " '" + arg + "'";
    command += " 2>&1";
    Exit result;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return result;
    char buffer[4096];
    while (std::fgets(buffer, sizeof buffer, pipe)) result.output += buffer;
    const int status = pclose(pipe);
    result.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return result;
}

class StaticAbuse : public ServerTest<server_args> {};

TEST_F(StaticAbuse, EveryProbeForAFileOutsideTheRootOrHiddenIs404) {
    ASSERT_EQ(http_request(server.port(), "GET", "/").status, 200U);  // the root does serve: 404s below are refusals
    for (const char* path : {"//etc/passwd", "///etc/passwd", "/%2fetc%2fpasswd", "/%2F%2Fetc/passwd",
                             "/%2e%2e/secret.txt", "/%2E%2E/%2E%2E/%2E%2E/etc/passwd", "/..%2fsecret.txt",
                             "/.%2e/secret.txt", "/%2e%2e%2fsecret.txt", "/..%5csecret.txt", "/%5c..%5csecret.txt",
                             "/%5cetc%5cpasswd", "/index.html%00.txt", "/%00", "/%00/etc/passwd", "/.git/config",
                             "/%2egit/config", "/.git/", "/./.git/config"}) {
        const auto response = http_request(server.port(), "GET", path);
        EXPECT_EQ(response.status, 404U) << path << " → " << response.body.substr(0, 200);
        EXPECT_EQ(response.body.find("root:"), std::string::npos) << path;
        EXPECT_EQ(response.body.find("not for the web"), std::string::npos) << path;
        EXPECT_EQ(response.body.find("hidden in the root"), std::string::npos) << path;
        EXPECT_EQ(response.body.find("<title>"), std::string::npos) << path;  // not index.html cut at the NUL
    }
}

TEST_F(StaticAbuse, PlusInAPathIsALiteralPlus) {
    const auto response = http_request(server.port(), "GET", "/a+b.txt");
    EXPECT_EQ(response.status, 200U);
    EXPECT_EQ(response.body, "a literal plus");
}

TEST_F(StaticAbuse, InvalidUtf8InAPathAnswersValidUtf8Json) {
    for (const char* path : {"/api/%FF", "/api/%C3%28", "/api/%FF%FE/schools", "/%FF", "/%E2%82"}) {
        const auto response = http_request(server.port(), "GET", path);
        EXPECT_EQ(response.status, 404U) << path;
        EXPECT_EQ(response.headers.at("content-type"), "application/problem+json") << path;
        EXPECT_TRUE(utf8::is_valid(response.body.begin(), response.body.end())) << path;
        boost::system::error_code ec;
        const auto body = boost::json::parse(response.body, ec);
        ASSERT_FALSE(ec) << path << ": " << ec.message();
        EXPECT_NE(std::string(body.at("detail").as_string()).find("\\x"), std::string::npos)
            << path << ": the bad bytes are shown escaped: " << response.body;
    }
}

TEST(StaticAbuseStart, AnUnusableWebRootGivenOnPurposeIsAFailedStart) {
    TempDir dir;
    std::ofstream(dir.path() / "a-file") << "not a folder";
    for (const auto& root : {(dir.path() / "missing").string(), (dir.path() / "a-file").string(), std::string()}) {
        const auto exit = run_to_exit({"--data", (dir.path() / "hschool.db").string(), "--mods",
                                       (ServerProcess::source_dir() / "mods").string(), "--web-root", root});
        EXPECT_EQ(exit.code, 1) << "--web-root '" << root << "': " << exit.output;
        EXPECT_EQ(exit.output.find("event=listening"), std::string::npos) << root;
        EXPECT_NE(exit.output.find("event=startup_failed"), std::string::npos) << exit.output;
        EXPECT_NE(exit.output.find("web root '" + root + "'"), std::string::npos) << exit.output;
    }
}

TEST(StaticAbuseStart, AMissingDefaultWebRootServesNothingAndHealthSaysSo) {
    // The default is relative to the working directory; where a client build sits there, it is usable.
    if (std::filesystem::exists("client/dist")) GTEST_SKIP() << "client/dist exists in the working directory";
    TempDir dir;
    ServerProcess server{{"--data", (dir.path() / "hschool.db").string(), "--mods",
                          (ServerProcess::source_dir() / "mods").string(), "--log-level", "info"}};
    ASSERT_TRUE(server.started()) << server.output();
    const auto health = http_request(server.port(), "GET", "/health");
    EXPECT_EQ(health.status, 200U);
    EXPECT_EQ(health.body, R"({"status":"serving","access":"open","webRoot":"none"})");
    for (const char* path : {"/", "/index.html", "//etc/passwd", "/%2fetc%2fpasswd"}) {
        const auto response = http_request(server.port(), "GET", path);
        EXPECT_EQ(response.status, 404U) << path;
        EXPECT_EQ(response.body.find("root:"), std::string::npos) << path;
    }
    EXPECT_NE(server.output().find("event=web_root_unavailable"), std::string::npos) << server.output();
}

}  // namespace
}  // namespace hschool::test::static_abuse
