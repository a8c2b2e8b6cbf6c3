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

TEST_F(Limits, SchoolsFrameAtTheLimitIsReadAndOneByteMoreIsRefused) {
    auto ok = WsClient::connect(server.port());
    ASSERT_TRUE(ok);
    ASSERT_TRUE(ok->send(schools_hello()));
    ASSERT_TRUE(ok->send(unknown_frame(v4::kMaxInboundFrameBytes)));
    ASSERT_TRUE(ok->send(v4::encode(v4::Ping{1})));
    ASSERT_TRUE(next_v4_of<v4::Pong>(*ok)) << "an 8 KiB frame must be accepted";

    auto big = WsClient::connect(server.port());
    ASSERT_TRUE(big);
    ASSERT_TRUE(big->send(schools_hello()));
    ASSERT_TRUE(big->send(unknown_frame(v4::kMaxInboundFrameBytes + 1)));
    EXPECT_EQ(close_code(*big), 1009);
}

TEST_F(Limits, ArenaFrameAtTheLimitIsReadAndOneByteMoreIsRefused) {
    auto ok = WsClient::connect(server.port());
    ASSERT_TRUE(ok);
    ASSERT_TRUE(ok->send(arena_hello()));
    ASSERT_TRUE(ok->send(unknown_frame(v1::kMaxInboundFrameBytes)));
    ASSERT_TRUE(ok->send(v1::encode(v1::Ping{1})));
    ASSERT_TRUE(next_v1_of<v1::Pong>(*ok)) << "a 64 KiB frame must be accepted";

    auto big = WsClient::connect(server.port());
    ASSERT_TRUE(big);
    ASSERT_TRUE(big->send(arena_hello()));
    ASSERT_TRUE(big->send(unknown_frame(v1::kMaxInboundFrameBytes + 1)));
    EXPECT_EQ(close_code(*big), 1009);
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
