// Every prefix of every valid frame is rejected, and every frame with an extra byte is rejected.
#include <gtest/gtest.h>

#include "protocol/hello.hpp"
#include "protocol/v1.hpp"
#include "protocol/v4.hpp"
#include "vectors.hpp"

namespace hschool {
namespace {

namespace p1 = protocol::v1;
namespace p4 = protocol::v4;
using protocol::Bytes;
using protocol::DecodeError;

template <class Decode>
void expect_every_prefix_rejected(const char* file, const char* direction, Decode decode) {
    const auto doc = test::load_vectors(file);
    int checked = 0;
    for (const auto& v : doc.at("valid").as_array()) {
        const auto& o = v.as_object();
        if (o.at("direction").as_string() != direction) continue;
        const Bytes frame = test::from_hex(o.at("hex").as_string());
        SCOPED_TRACE(std::string(o.at("name").as_string()));
        for (std::size_t cut = 0; cut < frame.size(); ++cut) {
            const Bytes prefix(frame.begin(), frame.begin() + static_cast<std::ptrdiff_t>(cut));
            const auto decoded = decode(prefix);
            EXPECT_FALSE(decoded.ok()) << "prefix of " << cut << " bytes was accepted";
            if (!decoded.ok() && cut > 0) {
                EXPECT_NE(decoded.error(), DecodeError::TrailingBytes);
            }
        }
        Bytes longer = frame;
        longer.push_back(0);
        const auto decoded = decode(longer);
        ASSERT_FALSE(decoded.ok());
        EXPECT_EQ(decoded.error(), DecodeError::TrailingBytes);
        ++checked;
    }
    EXPECT_GT(checked, 0);
}

TEST(Malformed, V1ClientPrefixesAndTrailingBytes) { expect_every_prefix_rejected("v1.json", "client", p1::decode_client); }
TEST(Malformed, V1ServerPrefixesAndTrailingBytes) { expect_every_prefix_rejected("v1.json", "server", p1::decode_server); }
TEST(Malformed, V4ClientPrefixesAndTrailingBytes) { expect_every_prefix_rejected("v4.json", "client", p4::decode_client); }
TEST(Malformed, V4ServerPrefixesAndTrailingBytes) { expect_every_prefix_rejected("v4.json", "server", p4::decode_server); }

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
