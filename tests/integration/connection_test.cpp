// Connection lifetime on /ws/game: Hello, versions, Welcome first, Ping, malformed frames.
#include <thread>

#include "wire.hpp"

namespace hschool::test {
namespace {

constexpr auto kPingPace = 25ms;  // 40 Pings a second: well inside the inbound budget (120)

class Connection : public ServerTest<isolated_server_args> {
protected:
    std::unique_ptr<WsClient> connect() {
        auto client = WsClient::connect(server.port());
        EXPECT_TRUE(client) << "WebSocket handshake failed";
        return client;
    }
};

TEST_F(Connection, HelloMustArriveWithinFiveSeconds) {
    auto client = connect();
    const auto started = std::chrono::steady_clock::now();
    const auto closed = client->read_until_closed(10s);
    const auto waited = std::chrono::steady_clock::now() - started;
    ASSERT_TRUE(closed.has_value()) << "a silent client was never dropped";
    EXPECT_EQ(closed->code, 1008);
    EXPECT_GE(waited, 4500ms) << "dropped before the 5 s deadline";
}

TEST_F(Connection, HelloVersionOnePicksTheArena) {
    auto client = connect();
    ASSERT_TRUE(client->send(arena_hello("Ann")));
    auto welcome = next_v1(*client);
    ASSERT_TRUE(welcome);
    ASSERT_TRUE(std::holds_alternative<v1::Welcome>(*welcome));
    const auto& w = std::get<v1::Welcome>(*welcome);
    EXPECT_EQ(w.version, 1);
    EXPECT_EQ(w.tick_rate, 20);
    EXPECT_GT(w.player_id, 0U);
    EXPECT_FLOAT_EQ(w.world_width, 1600.0f);
    EXPECT_FLOAT_EQ(w.world_height, 900.0f);
}

TEST_F(Connection, HelloVersionFourPicksTheSchools) {
    auto client = connect();
    ASSERT_TRUE(client->send(schools_hello()));
    auto welcome = next_v4(*client);
    ASSERT_TRUE(welcome);
    ASSERT_TRUE(std::holds_alternative<v4::Welcome>(*welcome));
    EXPECT_EQ(std::get<v4::Welcome>(*welcome), (v4::Welcome{4, 20, 6}));
}

TEST_F(Connection, AnyOtherVersionIsClosedWithProtocolError) {
    for (std::uint8_t version : {0, 2, 3, 6, 255}) {
        auto client = connect();
        ASSERT_TRUE(client->send(protocol::Bytes{0x01, version, 0x00}));
        EXPECT_EQ(close_code(*client), 1002) << "version " << int(version);
    }
}

// Hello and a Ping sent at once on `client`: the first frame `next` reads back is still the Welcome.
template <class Welcome, class Next>
void expect_welcome_first(const std::unique_ptr<WsClient>& client, const protocol::Bytes& hello, const protocol::Bytes& ping, Next next) {
    ASSERT_TRUE(client);
    ASSERT_TRUE(client->send(hello));
    ASSERT_TRUE(client->send(ping));
    auto first = next(*client);
    ASSERT_TRUE(first);
    EXPECT_TRUE(std::holds_alternative<Welcome>(*first));
}

TEST_F(Connection, WelcomeIsTheFirstFrameEvenWhenPingFollowsHelloAtOnce) {
    for (int round = 0; round < 5; ++round) {
        const auto arena = connect();
        expect_welcome_first<v1::Welcome>(arena, arena_hello(), v1::encode(v1::Ping{123}), [](WsClient& c) { return next_v1(c); });
        const auto schools = connect();
        expect_welcome_first<v4::Welcome>(schools, schools_hello(), v4::encode(v4::Ping{456}), [](WsClient& c) { return next_v4(c); });
    }
}

TEST_F(Connection, ArenaSnapshotsFollowWelcomeAndIncludeOwnAvatar) {
    auto client = connect();
    ASSERT_TRUE(client->send(arena_hello()));
    auto welcome = next_v1_of<v1::Welcome>(*client);
    ASSERT_TRUE(welcome);
    auto snapshot = next_v1_of<v1::Snapshot>(*client);
    ASSERT_TRUE(snapshot);
    const auto own = std::find_if(snapshot->entities.begin(), snapshot->entities.end(),
                                  [&](const v1::EntityState& e) { return e.id == welcome->player_id; });
    ASSERT_NE(own, snapshot->entities.end());
    EXPECT_EQ(own->kind, v1::kind::kPlayer);
}

TEST_F(Connection, ArenaPingIsAnsweredWithEchoAndServerTick) {
    auto client = connect();
    ASSERT_TRUE(client->send(arena_hello()));
    ASSERT_TRUE(client->send(v1::encode(v1::Ping{-987654321012})));
    auto pong = next_v1_of<v1::Pong>(*client);
    ASSERT_TRUE(pong);
    EXPECT_EQ(pong->client_time_ms, -987654321012);
    // The tick carried is the loop's: a ping sent once a later tick's snapshot arrived carries a later tick.
    std::optional<v1::Snapshot> later_tick;
    for (int i = 0; i < 1000 && !(later_tick && later_tick->tick > pong->server_tick); ++i) {
        later_tick = next_v1_of<v1::Snapshot>(*client);
        ASSERT_TRUE(later_tick);
    }
    ASSERT_GT(later_tick->tick, pong->server_tick) << "the loop did not step";
    ASSERT_TRUE(client->send(v1::encode(v1::Ping{2})));
    auto later = next_v1_of<v1::Pong>(*client);
    ASSERT_TRUE(later);
    EXPECT_EQ(later->client_time_ms, 2);
    EXPECT_GT(later->server_tick, pong->server_tick);
}

TEST_F(Connection, SchoolsPingIsAnsweredWithEchoAndServerTick) {
    auto client = connect();
    ASSERT_TRUE(client->send(schools_hello(1)));
    ASSERT_TRUE(next_v4_of<v4::Welcome>(*client));
    ASSERT_TRUE(client->send(v4::encode(v4::Ping{1700000000123})));
    auto pong = next_v4_of<v4::Pong>(*client);
    ASSERT_TRUE(pong);
    EXPECT_EQ(pong->client_time_ms, 1700000000123);
    // A connection without a school gets no frames to tell the time by: it pings (at a pace well
    // inside the inbound budget) until a Pong carries a later tick; none may carry an earlier one.
    std::optional<v4::Pong> later;
    for (const auto until = std::chrono::steady_clock::now() + kWait;
         std::chrono::steady_clock::now() < until && !(later && later->server_tick > pong->server_tick);) {
        std::this_thread::sleep_for(kPingPace);
        ASSERT_TRUE(client->send(v4::encode(v4::Ping{5})));
        later = next_v4_of<v4::Pong>(*client);
        ASSERT_TRUE(later);
        EXPECT_EQ(later->client_time_ms, 5);
        ASSERT_GE(later->server_tick, pong->server_tick) << "a later Pong carried an earlier tick";
    }
    ASSERT_TRUE(later);
    EXPECT_GT(later->server_tick, pong->server_tick);
}

TEST_F(Connection, TextFramesAreMalformed) {
    auto before_hello = connect();
    ASSERT_TRUE(before_hello->send_text("hello"));
    EXPECT_EQ(close_code(*before_hello), 1007);
    auto after_hello = connect();
    ASSERT_TRUE(after_hello->send(schools_hello()));
    ASSERT_TRUE(after_hello->send_text("{\"open\": 1}"));
    EXPECT_EQ(close_code(*after_hello), 1007);
}

TEST_F(Connection, ASecondHelloIsMalformed) {
    auto arena = connect();
    ASSERT_TRUE(arena->send(arena_hello()));
    ASSERT_TRUE(arena->send(arena_hello()));
    EXPECT_EQ(close_code(*arena), 1007);
    auto schools = connect();
    ASSERT_TRUE(schools->send(schools_hello()));
    ASSERT_TRUE(schools->send(schools_hello()));
    EXPECT_EQ(close_code(*schools), 1007);
}

TEST_F(Connection, AFirstFrameThatIsNotHelloIsMalformed) {
    for (const protocol::Bytes& frame : {protocol::Bytes{}, protocol::Bytes{0x02, 0, 0, 0, 0, 1}, protocol::Bytes{0x01}}) {
        auto client = connect();
        ASSERT_TRUE(client->send(frame));
        EXPECT_EQ(close_code(*client), 1007);
    }
}

TEST_F(Connection, MalformedHellosAreRejected) {
    auto long_name = connect();
    protocol::Bytes hello{0x01, 0x01, 33};
    hello.resize(3 + 33, 'x');
    ASSERT_TRUE(long_name->send(hello));
    EXPECT_EQ(close_code(*long_name), 1007);
    auto bad_utf8 = connect();
    ASSERT_TRUE(bad_utf8->send(protocol::Bytes{0x01, 0x01, 0x02, 0xC3, 0x28}));
    EXPECT_EQ(close_code(*bad_utf8), 1007);
    auto v4_trailing = connect();
    ASSERT_TRUE(v4_trailing->send(protocol::Bytes{0x01, 0x04, 0x00, 0x00}));
    EXPECT_EQ(close_code(*v4_trailing), 1007);
}

TEST_F(Connection, MalformedFramesAfterHelloCloseWithInvalidPayload) {
    const std::vector<std::pair<protocol::Bytes, protocol::Bytes>> cases{
        {arena_hello(), {0x02, 0x01, 0x00}},                      // truncated Input
        {arena_hello(), {0x03, 1, 2, 3, 4, 5, 6, 7, 8, 9}},       // Ping with a trailing byte
        {arena_hello(), {}},                                       // empty frame
        {schools_hello(), {0x03, 0x01}},                           // truncated OpenSchool
        {schools_hello(), {0x04, 0x00}},                           // CloseSchool with a trailing byte
        {schools_hello(), {0x06}},                                 // SetSpeed without its byte
    };
    for (const auto& [hello, frame] : cases) {
        auto client = connect();
        ASSERT_TRUE(client->send(hello));
        ASSERT_TRUE(client->send(frame));
        EXPECT_EQ(close_code(*client), 1007);
    }
}

TEST_F(Connection, UnknownMessageIdsAreIgnored) {
    auto arena = connect();
    ASSERT_TRUE(arena->send(arena_hello()));
    ASSERT_TRUE(arena->send(protocol::Bytes{0x7F, 1, 2, 3}));
    ASSERT_TRUE(arena->send(protocol::Bytes{0x83, 0}));  // a server id sent by a client: unknown here
    ASSERT_TRUE(arena->send(v1::encode(v1::Ping{77})));
    auto pong = next_v1_of<v1::Pong>(*arena);
    ASSERT_TRUE(pong);
    EXPECT_EQ(pong->client_time_ms, 77);
    auto schools = connect();
    ASSERT_TRUE(schools->send(schools_hello()));
    ASSERT_TRUE(schools->send(protocol::Bytes{0x40}));
    ASSERT_TRUE(schools->send(v4::encode(v4::Ping{78})));
    auto pong4 = next_v4_of<v4::Pong>(*schools);
    ASSERT_TRUE(pong4);
    EXPECT_EQ(pong4->client_time_ms, 78);
}

TEST_F(Connection, OpeningAnUnknownSchoolSendsSchoolGone) {
    auto client = connect();
    ASSERT_TRUE(client->send(schools_hello()));
    ASSERT_TRUE(client->send(v4::encode(v4::OpenSchool{424242})));
    auto gone = next_v4_of<v4::SchoolGone>(*client);
    ASSERT_TRUE(gone);
    EXPECT_EQ(gone->school_id, 424242);
}

TEST_F(Connection, OtherWebSocketPathsAreNotFound) {
    EXPECT_FALSE(WsClient::connect(server.port(), {"/ws/other", 0}));
    EXPECT_TRUE(WsClient::connect(server.port(), {"/ws/game", 0}));
}

}  // namespace
}  // namespace hschool::test
