// Hide-and-seek under attack (issue 19): controls are idempotent and bounded, and every
// per-address and per-match budget refuses the attacker with 429/503, Retry-After and a metric,
// while another address is still served. Each test runs the attack of the issue's table.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <atomic>
#include <fstream>
#include <sstream>
#include <thread>

#include "abuse_support.hpp"
#include "protocol/sprite_v1.hpp"

namespace hschool::test::abuse {
namespace {

namespace json = boost::json;
namespace sv = protocol::sprite_v1;

inline constexpr const char* kOtherAddress = "127.0.0.2";  // still this machine, another client
inline constexpr auto kReply = kWait;

json::value parse(const std::string& text) {
    json::error_code ec;
    auto value = json::parse(text, ec);
    return ec ? json::value(nullptr) : value;
}

// One HTTP request on its own connection from `source` ("" for the kernel's pick).
HttpReply request_from(std::uint16_t port, const std::string& source, const std::string& method, const std::string& target,
                       const std::string& body = "") {
    SocketOptions options;
    options.source_address = source;
    Socket socket = Socket::connect(port, options);
    if (!socket.valid()) return {};
    std::string request = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
    if (!body.empty() || method == "POST") request += "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
    request += "\r\n" + body;
    if (!socket.send_all(request)) return {};
    std::string buffer;
    return read_http_reply(socket, buffer, method == "HEAD", kReply);
}

std::string created_id(const HttpReply& reply) {
    const auto value = parse(reply.body);
    return reply.status == 201 && value.is_object() ? std::string(value.as_object().at("id").as_string()) : "";
}

double refused(std::uint16_t port, const std::string& reason) {
    return series(scrape_metrics(port), "hschool_hns_refused_total{reason=\"" + reason + "\"}").value_or(0);
}

std::int64_t tick_of(std::uint16_t port, const std::string& id) {
    const auto value = parse(request_from(port, "", "GET", "/api/hns/matches/" + id).body);
    if (!value.is_object()) return -1;
    const auto* tick = value.as_object().if_contains("tick");
    return tick && tick->is_int64() ? tick->as_int64() : -1;
}

TEST(HnsBudgetsAbuse, TheKickListIsABoundedSet) {
    TempDir dir;
    ServerProcess server(server_args(dir));
    ASSERT_TRUE(server.started()) << server.output();
    const std::string id = created_id(request_from(server.port(), "", "POST", "/api/hns/matches", R"({"variant":"certification"})"));
    ASSERT_FALSE(id.empty());
    // 32,000 distinct kicks once grew the list without bound; past 256 they are refused now.
    int queued = 0, full = 0;
    std::string retry_after;
    for (int i = 0; i < 300; ++i) {
        const auto reply = request_from(server.port(), "", "POST", "/control/kick?match=" + id + "&identity=name" + std::to_string(i));
        if (reply.status == 202) ++queued;
        if (reply.status == 429) {
            ++full;
            retry_after = reply.header("retry-after");
            EXPECT_EQ(reply.body, "kick list is full\n");
        }
    }
    EXPECT_EQ(queued, 256);
    EXPECT_EQ(full, 300 - 256);
    EXPECT_FALSE(retry_after.empty()) << "a 429 says when to come back";
    // Kicking a name already kicked is idempotent; it costs no place.
    EXPECT_EQ(request_from(server.port(), "", "POST", "/control/kick?match=" + id + "&identity=name7").status, 202U);
    EXPECT_GE(refused(server.port(), "kick_list"), 44.0);
    // An honest seat is still admitted.
    EXPECT_TRUE(RawWs::connect(server.port(), UpgradeOptions{"/player?match=" + id + "&slot=0&name=honest", {}, {}, {}}));
}

TEST(HnsBudgetsAbuse, RestartsCoalesceAndComeAtMostOnceASecond) {
    TempDir dir;
    ServerProcess server(server_args(dir));
    ASSERT_TRUE(server.started()) << server.output();
    const std::string id = created_id(request_from(server.port(), "", "POST", "/api/hns/matches", R"({"variant":"certification","bots":6})"));
    ASSERT_FALSE(id.empty());
    // Pipelined restarts on one connection: once every one was queued and run, freezing the match.
    // Now they coalesce into the one pending restart (202 each: a restart pending is a restart pending).
    Socket socket = Socket::connect(server.port());
    ASSERT_TRUE(socket.valid());
    constexpr int kRestarts = 300;
    std::string burst;
    for (int i = 0; i < kRestarts; ++i) burst += "POST /control/restart?match=" + id + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n";
    ASSERT_TRUE(socket.send_all(burst));
    std::string buffer;
    int answered = 0;
    for (int i = 0; i < kRestarts; ++i) {
        const auto reply = read_http_reply(socket, buffer, false, kReply);
        ASSERT_TRUE(reply.complete) << "answer " << i;
        if (reply.status == 202 || reply.status == 429) ++answered;
    }
    EXPECT_EQ(answered, kRestarts);
    // The match plays on, and its stream starts over at most twice (once per restart applied).
    auto viewer = RawWs::connect(server.port(), UpgradeOptions{"/global?match=" + id, {}, {}, {}});
    ASSERT_TRUE(viewer);
    viewer->set_auto_pong(true);  // as a browser: its Pongs keep its delivery window open
    std::int64_t tick = -1;
    int headers = 0;
    for (int frames = 0; frames < 600 && tick < 72; ++frames) {
        auto event = viewer->read_binary(kReply);
        ASSERT_TRUE(std::holds_alternative<WsMessage>(event));
        if (frames > 0 && !std::get<WsMessage>(event).payload.empty() && std::get<WsMessage>(event).payload[0] == 0x04) ++headers;
        if (frames % 12 == 0) tick = tick_of(server.port(), id);
    }
    EXPECT_GE(tick, 72) << "the match stood still after the flood";
    EXPECT_LE(headers, 1) << "more restarts were run than the flood's one";
    // Spaced restarts: one a second at most; the others are 429 with Retry-After.
    int accepted = 0, too_soon = 0;
    for (int i = 0; i < 20; ++i) {
        const auto reply = request_from(server.port(), "", "POST", "/control/restart?match=" + id);
        if (reply.status == 202) ++accepted;
        if (reply.status == 429) {
            ++too_soon;
            EXPECT_FALSE(reply.header("retry-after").empty());
        }
        std::this_thread::sleep_for(50ms);
    }
    EXPECT_GE(too_soon, 10) << accepted << " accepted";
    EXPECT_GE(refused(server.port(), "restart_interval"), 1.0);
}

TEST(HnsBudgetsAbuse, OneAddressCannotFillTheLiveMatchCap) {
    TempDir dir;
    ServerProcess server(server_args(dir, {"--hns-max-matches-per-ip", "3"}));
    ASSERT_TRUE(server.started()) << server.output();
    const std::string long_lobby = R"({"variant":"warren"})";
    for (int i = 0; i < 3; ++i) ASSERT_FALSE(created_id(request_from(server.port(), "", "POST", "/api/hns/matches", long_lobby)).empty()) << i;
    const auto over = request_from(server.port(), "", "POST", "/api/hns/matches", long_lobby);
    EXPECT_TRUE(is_problem(over, 429)) << over.body;
    EXPECT_NE(over.body.find("too-many-matches-per-address"), std::string::npos) << over.body;
    EXPECT_FALSE(over.header("retry-after").empty());
    EXPECT_GE(refused(server.port(), "matches_per_address"), 1.0);
    // Someone else still gets a match.
    EXPECT_FALSE(created_id(request_from(server.port(), kOtherAddress, "POST", "/api/hns/matches", long_lobby)).empty());
}

TEST(HnsBudgetsAbuse, OneAddressCannotTakeEverySpectatorPlace) {
    TempDir dir;
    ServerProcess server(server_args(dir, {"--hns-max-viewers-per-ip", "4", "--hns-max-viewers-per-match", "6"}));
    ASSERT_TRUE(server.started()) << server.output();
    const std::string id = created_id(request_from(server.port(), "", "POST", "/api/hns/matches", R"({"variant":"warren"})"));
    ASSERT_FALSE(id.empty());
    std::vector<std::unique_ptr<RawWs>> mine;
    for (const char* path : {"/global", "/admin", "/reward", "/global"}) {
        mine.push_back(RawWs::connect(server.port(), UpgradeOptions{std::string(path) + "?match=" + id, {}, {}, {}}));
        ASSERT_TRUE(mine.back()) << path;
    }
    auto over = RawWs::upgrade(server.port(), UpgradeOptions{"/global?match=" + id, {}, {}, {}});
    EXPECT_FALSE(over.ws);
    EXPECT_EQ(over.reply.status, 429U);
    EXPECT_FALSE(over.reply.header("retry-after").empty());
    UpgradeOptions other{"/global?match=" + id, {}, {}, {}};
    other.socket.source_address = kOtherAddress;
    auto a = RawWs::connect(server.port(), other);
    auto b = RawWs::connect(server.port(), other);
    EXPECT_TRUE(a && b) << "another address was refused";
    auto full = RawWs::upgrade(server.port(), other);  // 4 + 2: the match's own cap
    EXPECT_FALSE(full.ws);
    EXPECT_EQ(full.reply.status, 503U);
    EXPECT_GE(refused(server.port(), "viewers_per_address"), 1.0);
    EXPECT_GE(refused(server.port(), "viewers_per_match"), 1.0);
    // A closed viewer gives its place back.
    mine.pop_back();
    EXPECT_TRUE(eventually([&] { return RawWs::upgrade(server.port(), UpgradeOptions{"/global?match=" + id, {}, {}, {}}).ws != nullptr; }, kWait));
}

TEST(HnsBudgetsAbuse, ReplayViewersAreBoundedPerAddressAndInAll) {
    TempDir dir;
    ServerProcess server(server_args(dir, {"--hns-max-replay-viewers-per-ip", "2", "--hns-max-replay-viewers", "3"}));
    ASSERT_TRUE(server.started()) << server.output();
    const std::string id = created_id(request_from(server.port(), "", "POST", "/api/hns/matches", R"({"variant":"certification","bots":6})"));
    ASSERT_FALSE(id.empty());
    {
        auto fast = RawWs::connect(server.port(), UpgradeOptions{"/global?match=" + id, {}, {}, {}});
        ASSERT_TRUE(fast);
        fast->set_auto_pong(true);  // as a browser: unanswered, its window shuts and the stall drops it before the end
        ASSERT_TRUE(fast->send_binary(sv::encode(sv::ClientMessage{sv::InputText{"6"}})));
        auto ended = fast->read_until_end(kWait);
        ASSERT_TRUE(ended);
        ASSERT_EQ(ended->code, 1000);
    }
    const UpgradeOptions replay{"/replay?match=" + id, {}, {}, {}};
    auto one = RawWs::connect(server.port(), replay);
    auto two = RawWs::connect(server.port(), replay);
    ASSERT_TRUE(one && two);
    auto three = RawWs::upgrade(server.port(), replay);
    EXPECT_FALSE(three.ws);
    EXPECT_EQ(three.reply.status, 429U);
    UpgradeOptions elsewhere = replay;
    elsewhere.socket.source_address = kOtherAddress;
    auto other = RawWs::connect(server.port(), elsewhere);
    EXPECT_TRUE(other) << "another address was refused";
    auto over_all = RawWs::upgrade(server.port(), elsewhere);
    EXPECT_FALSE(over_all.ws);
    EXPECT_EQ(over_all.reply.status, 503U);
    EXPECT_GE(refused(server.port(), "replay_viewers_per_address"), 1.0);
    EXPECT_GE(refused(server.port(), "replay_viewers"), 1.0);
}

TEST(HnsBudgetsAbuse, HalfSentRequestsFromOneAddressHoldAtMostItsShare) {
    TempDir dir;
    ServerProcess server(server_args(dir, {"--max-http-connections-per-ip", "8"}));
    ASSERT_TRUE(server.started()) << server.output();
    // Requests that never finish: once every one was held, for as long as a byte came every 12 s.
    std::vector<Socket> held;
    for (int i = 0; i < 8; ++i) {
        held.push_back(Socket::connect(server.port()));
        ASSERT_TRUE(held.back().valid());
        ASSERT_TRUE(held.back().send_all("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"));
    }
    ASSERT_TRUE(eventually([&] {
        Socket probe = Socket::connect(server.port());
        std::string buffer;
        return probe.valid() && probe.send_all("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") &&
               read_http_reply(probe, buffer, false, kReply).status == 503;
    }, kWait)) << "the ninth connection from one address was served";
    // Another address is served at once.
    const auto other = request_from(server.port(), kOtherAddress, "GET", "/healthz");
    EXPECT_EQ(other.status, 200U);
    EXPECT_EQ(other.body, "healthy");
    held.clear();  // the scrape comes from 127.0.0.1 too
    EXPECT_TRUE(eventually([&] {
        return series(scrape_metrics(server.port()), "hschool_connections_refused_total{reason=\"http_per_ip\"}").value_or(0) >= 1.0;
    }, kWait));
}

TEST(HnsBudgetsAbuse, FastModeHasACeiling) {
    TempDir dir;
    constexpr int kCeiling = 200;  // ticks a second; a certification run needs ~950 in all
    ServerProcess server(server_args(dir, {"--hns-max-ticks-per-second", std::to_string(kCeiling)}));
    ASSERT_TRUE(server.started()) << server.output();
    const std::string id = created_id(request_from(server.port(), "", "POST", "/api/hns/matches", R"({"variant":"certification","bots":5})"));
    ASSERT_FALSE(id.empty());
    // One seat answers every frame with a lone 0x85 as fast as it can: readiness pacing, capped.
    auto seat = RawWs::connect(server.port(), UpgradeOptions{"/player?match=" + id + "&slot=0&name=fast", {}, {}, {}});
    ASSERT_TRUE(seat);
    const std::int64_t first = tick_of(server.port(), id);
    const auto start = Clock::now();
    for (int frames = 0; frames < 400; ++frames) {
        if (!std::holds_alternative<WsMessage>(seat->read_binary(kReply))) break;
        seat->send_binary({sv::id::kPlayerReady});
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    const std::int64_t stepped = tick_of(server.port(), id) - first;
    // An upper bound only: a slow machine steps fewer ticks, never more than the ceiling allows.
    EXPECT_LE(static_cast<double>(stepped), kCeiling * (seconds + 0.25) + 16) << stepped << " ticks in " << seconds << " s";
    EXPECT_GT(stepped, 0);
}

}  // namespace
}  // namespace hschool::test::abuse

namespace hschool::test::abuse {
namespace {

inline constexpr auto kMaxHealthzRoundTrip = 100ms;  // a quiet machine answers in about a millisecond

// A room of 256 walls over the whole board: refused, but rasterising it once cost 112 ms of a
// network thread per request, and /healthz waited 220 ms for everybody during a flood of them.
TEST(HnsBudgetsAbuse, ExpensiveCreatesNeverSlowTheNetworkThreads) {
    TempDir dir;
    ServerProcess server(server_args(dir, {"--io-threads", "1"}));
    ASSERT_TRUE(server.started()) << server.output();
    std::ifstream file(ServerProcess::source_dir() / "src/sim/hns/rooms/room_warren.json");
    std::stringstream text;
    text << file.rdbuf();
    auto room = parse(text.str());
    ASSERT_TRUE(room.is_object());
    json::array walls;
    for (int i = 0; i < 256; ++i) walls.push_back(json::array{0, 0, 720, 400});
    room.as_object()["walls"] = std::move(walls);
    const std::string body = json::serialize(json::object{{"config", json::object{{"mapSpec", room}}}});
    ASSERT_LT(body.size(), 64U * 1024);

    std::atomic<bool> flooding{true};
    std::atomic<int> answered{0};
    std::vector<std::thread> attackers;
    for (int t = 0; t < 3; ++t) {
        attackers.emplace_back([&] {
            while (flooding) {
                const auto reply = request_from(server.port(), "", "POST", "/api/hns/matches", body);
                if (reply.status >= 400) ++answered;
            }
        });
    }
    std::chrono::nanoseconds worst{0};
    for (int i = 0; i < 40; ++i) {
        const auto start = Clock::now();
        const auto reply = request_from(server.port(), kOtherAddress, "GET", "/healthz");
        worst = std::max(worst, Clock::now() - start);
        EXPECT_EQ(reply.status, 200U);
        std::this_thread::sleep_for(25ms);
    }
    flooding = false;
    for (auto& t : attackers) t.join();
    EXPECT_GT(answered.load(), 3) << "the flood did not reach the server";
    EXPECT_LT(worst, kMaxHealthzRoundTrip) << "worst /healthz round trip " << std::chrono::duration_cast<std::chrono::milliseconds>(worst).count()
                                          << " ms during the flood";
}

}  // namespace
}  // namespace hschool::test::abuse
