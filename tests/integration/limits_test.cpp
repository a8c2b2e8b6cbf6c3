// Inbound frame limits per protocol version: 8 KiB for v4 and 64 KiB for v1, refused with 1009.
#include "wire.hpp"

namespace hschool::test {
namespace {

class Limits : public ServerTest<isolated_server_args> {};

// A frame of an unknown id padded to the given size: legal except for its size.
protocol::Bytes unknown_frame(std::size_t size) {
    protocol::Bytes frame(size, 0xAB);
    frame[0] = 0x7F;
    return frame;
}

// After `hello`, a frame of exactly `limit` bytes is read (the Ping behind it gets its Pong, which
// `pong_follows` waits for) and, on another connection, one byte more is refused with 1009.
template <class PongFollows>
void expect_limit_holds(std::uint16_t port, const protocol::Bytes& hello, std::size_t limit, const protocol::Bytes& ping,
                        PongFollows pong_follows) {
    auto ok = WsClient::connect(port);
    ASSERT_TRUE(ok);
    ASSERT_TRUE(ok->send(hello));
    ASSERT_TRUE(ok->send(unknown_frame(limit)));
    ASSERT_TRUE(ok->send(ping));
    ASSERT_TRUE(pong_follows(*ok)) << "a frame of " << limit << " bytes must be accepted";

    auto big = WsClient::connect(port);
    ASSERT_TRUE(big);
    ASSERT_TRUE(big->send(hello));
    ASSERT_TRUE(big->send(unknown_frame(limit + 1)));
    EXPECT_EQ(close_code(*big), 1009);
}

TEST_F(Limits, SchoolsFrameAtTheLimitIsReadAndOneByteMoreIsRefused) {
    expect_limit_holds(server.port(), schools_hello(), v4::kMaxInboundFrameBytes, v4::encode(v4::Ping{1}),
                       [](WsClient& c) { return next_v4_of<v4::Pong>(c).has_value(); });
}

TEST_F(Limits, ArenaFrameAtTheLimitIsReadAndOneByteMoreIsRefused) {
    expect_limit_holds(server.port(), arena_hello(), v1::kMaxInboundFrameBytes, v1::encode(v1::Ping{1}),
                       [](WsClient& c) { return next_v1_of<v1::Pong>(c).has_value(); });
}

TEST_F(Limits, OversizedFrameIsCountedInMetrics) {
    auto big = WsClient::connect(server.port());
    ASSERT_TRUE(big);
    ASSERT_TRUE(big->send(schools_hello()));
    ASSERT_TRUE(big->send(unknown_frame(20000)));
    EXPECT_EQ(close_code(*big), 1009);
    const auto metrics = http_request(server.port(), "GET", "/metrics");
    EXPECT_NE(metrics.body.find("hschool_closes_total{code=\"1009\"} 1"), std::string::npos) << metrics.body;
}

}  // namespace
}  // namespace hschool::test
