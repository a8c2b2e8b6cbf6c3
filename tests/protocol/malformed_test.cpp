// Every prefix of every valid frame is rejected, and every frame with an extra byte is rejected.
#include <gtest/gtest.h>

#include "protocol/hello.hpp"
#include "protocol/v1.hpp"
#include "protocol/v4.hpp"
#include "prefix_check.hpp"
#include "vectors.hpp"

namespace hschool {
namespace {

namespace p1 = protocol::v1;
namespace p4 = protocol::v4;
using protocol::Bytes;
using protocol::DecodeError;

TEST(Malformed, V1ClientPrefixesAndTrailingBytes) { test::expect_every_prefix_rejected("v1.json", "client", p1::decode_client); }
TEST(Malformed, V1ServerPrefixesAndTrailingBytes) { test::expect_every_prefix_rejected("v1.json", "server", p1::decode_server); }
TEST(Malformed, V4ClientPrefixesAndTrailingBytes) { test::expect_every_prefix_rejected("v4.json", "client", p4::decode_client); }
TEST(Malformed, V4ServerPrefixesAndTrailingBytes) { test::expect_every_prefix_rejected("v4.json", "server", p4::decode_server); }

TEST(Malformed, SnapshotWithMaximumCountButNoBodyIsRejectedWithoutAllocating) {
    // 65535 entities claimed in a 7-byte frame: the count is checked against the bytes left first.
    const Bytes frame{0x82, 0, 0, 0, 0, 0xFF, 0xFF};
    const auto decoded = p1::decode_server(frame);
    ASSERT_FALSE(decoded.ok());
    EXPECT_EQ(decoded.error(), DecodeError::CountTooLarge);
}

TEST(Malformed, MapSnapshotNodeCountBeyondBytesLeftIsRejected) {
    Bytes frame{0x85, 1, 0, 0, 0, 0xFF, 0xFF};
    frame.resize(frame.size() + 8 * 9, 0);  // room for 8 minimal nodes, not 65535
    const auto decoded = p4::decode_server(frame);
    ASSERT_FALSE(decoded.ok());
    EXPECT_EQ(decoded.error(), DecodeError::CountTooLarge);
}

TEST(Malformed, MapSnapshotOfMinimalNodesAtTheBoundaryIsAccepted) {
    Bytes frame{0x85, 1, 0, 0, 0, 3, 0};
    frame.resize(frame.size() + 3 * 9, 0);  // three nodes, all strings empty, no items
    const auto decoded = p4::decode_server(frame);
    ASSERT_TRUE(decoded.ok()) << protocol::describe(decoded.error());
    EXPECT_EQ(std::get<p4::MapSnapshot>(*decoded).nodes.size(), 3U);
}

TEST(Malformed, HelloNameLengthByteAboveLimitIsRejectedEvenWhenBytesFollow) {
    Bytes frame{0x01, 0x01, 200};
    frame.resize(frame.size() + 200, 'a');
    const auto decoded = p1::decode_client(frame);
    ASSERT_FALSE(decoded.ok());
    EXPECT_EQ(decoded.error(), DecodeError::LengthTooLarge);
}

TEST(HelloVersion, ReadsTheVersionByteOfAnyHello) {
    EXPECT_EQ(protocol::hello_version(Bytes{0x01, 0x04, 0x00}), 4);
    EXPECT_EQ(protocol::hello_version(Bytes{0x01, 0x01, 0x00}), 1);
    EXPECT_EQ(protocol::hello_version(Bytes{0x01, 0x09}), 9);
}

TEST(HelloVersion, IsAbsentForOtherFramesAndShortFrames) {
    EXPECT_FALSE(protocol::hello_version(Bytes{}).has_value());
    EXPECT_FALSE(protocol::hello_version(Bytes{0x01}).has_value());
    EXPECT_FALSE(protocol::hello_version(Bytes{0x02, 0x04}).has_value());
}

}  // namespace
}  // namespace hschool
