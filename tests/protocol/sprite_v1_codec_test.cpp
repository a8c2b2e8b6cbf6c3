// Sprite v1 codec behaviour beyond the vectors: truncation at every cut, the tolerant client
// parser, standalone 0x85/0x87, pixels round trips, chunking at 900,000 bytes.
#include <gtest/gtest.h>

#include <random>

#include "protocol/sprite_pixels.hpp"
#include "protocol/sprite_v1.hpp"
#include "vectors.hpp"

namespace hschool {
namespace {

namespace sv = protocol::sprite_v1;
using protocol::Bytes;

TEST(SpriteV1Codec, EveryCutOfASingleMessageIsTruncated) {
    const auto doc = test::load_vectors("sprite_v1.json");
    int checked = 0;
    for (const auto& entry : doc.at("valid").as_array()) {
        const auto& v = entry.as_object();
        const std::string type(v.at("type").as_string());
        // A Frame may be cut on a boundary, and a 0x82 is whole without its optional layer byte.
        if (type == "Frame" || type == "MousePosition") continue;
        SCOPED_TRACE(std::string(v.at("name").as_string()));
        const Bytes bytes = test::from_hex(v.at("hex").as_string());
        const bool server = v.at("direction").as_string() == "server";
        for (std::size_t cut = 1; cut < bytes.size(); ++cut) {
            const Bytes prefix(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut));
            const auto error = server ? (sv::decode_server(prefix) ? std::optional<sv::Error>() : sv::decode_server(prefix).error())
                                      : (sv::decode_client(prefix) ? std::optional<sv::Error>() : sv::decode_client(prefix).error());
            ASSERT_TRUE(error.has_value()) << "cut at " << cut << " was accepted";
            // A cut inside a 0x01's pixel block may leave a preamble that no longer matches.
            if (type != "DefineSprite") {
                EXPECT_EQ(*error, sv::Error::Truncated) << "cut at " << cut;
            }
        }
        ++checked;
    }
    EXPECT_GE(checked, 20);
}

TEST(SpriteV1Codec, AnEmptyWebSocketMessageHoldsNoMessages) {
    EXPECT_TRUE(sv::decode_server({})->empty());
    EXPECT_TRUE(sv::decode_client({})->empty());
}

TEST(SpriteV1Codec, TheTolerantClientParserKeepsWhatCameBeforeTheFault) {
    const Bytes frame{0x84, 0x08, 0x85, 0x42, 0x84, 0x01};
    const auto prefix = sv::decode_client_prefix(frame);
    ASSERT_EQ(prefix.messages.size(), 2u);
    EXPECT_EQ(std::get<sv::PlayerInput>(prefix.messages[0]).mask, 0x08);
    EXPECT_TRUE(std::holds_alternative<sv::PlayerReady>(prefix.messages[1]));
    EXPECT_EQ(prefix.stopped, sv::Error::UnknownType);
    EXPECT_FALSE(sv::decode_client(frame).ok());
}

TEST(SpriteV1Codec, ReadyAndSpritesOffCountOnlyAlone) {
    EXPECT_TRUE(sv::is_standalone_ready(Bytes{0x85}));
    EXPECT_FALSE(sv::is_standalone_ready(Bytes{0x84, 0x00, 0x85}));
    EXPECT_FALSE(sv::is_standalone_ready(Bytes{0x85, 0x85}));
    EXPECT_TRUE(sv::is_standalone_sprites_off(Bytes{0x87}));
    EXPECT_FALSE(sv::is_standalone_sprites_off(Bytes{0x87, 0x85}));
}

TEST(SpriteV1Codec, InputTextKeepsWhatTheReferenceKeeps) {
    EXPECT_EQ(sv::printable_text("a\tb\xc3\xa9\n\x1b~\x7f"), "ab\n\x1b~");
}

TEST(SpriteV1Codec, AMouseLayerThatReadsAsAMessageIdIsRefusedOnEncode) {
    Bytes out{0x85};
    EXPECT_EQ(sv::append(out, sv::ClientMessage{sv::MousePosition{1, 2, std::uint8_t{0x84}}}), sv::Error::BadMouseLayer);
    EXPECT_EQ(out, Bytes{0x85});  // left as it was
    EXPECT_FALSE(sv::append(out, sv::ClientMessage{sv::MousePosition{1, 2, std::uint8_t{0x80}}}).has_value());
}

TEST(SpriteV1Codec, EncodingRefusesWhatDecodingRefuses) {
    Bytes out;
    EXPECT_EQ(sv::append(out, sv::ServerMessage{sv::SetViewport{0, 0, 10}}), sv::Error::ZeroDimension);
    EXPECT_EQ(sv::append(out, sv::ServerMessage{sv::DefineLayer{0, 10, 0}}), sv::Error::BadLayerType);
    EXPECT_EQ(sv::append(out, sv::ServerMessage{sv::DefineSprite{1, 2, 2, Bytes{0x05, 0x10}, ""}}), sv::Error::SizeMismatch);
    EXPECT_EQ(sv::append(out, sv::ClientMessage{sv::DebugSprites{Bytes(sv::kMaxDebugSpritesBytes + 1)}}), sv::Error::TooLarge);
    EXPECT_TRUE(out.empty());
}

TEST(SpriteV1Pixels, NoisyPixelsRoundTripThroughSnappy) {
    std::mt19937 rng(7);
    Bytes rgba(72 * 72 * 4);
    for (auto& b : rgba) b = static_cast<std::uint8_t>(rng() & 0x0F);
    const Bytes block = sv::compress_rgba(rgba);
    const auto out = sv::decompress_rgba(block, 72, 72);
    ASSERT_TRUE(out.ok());
    EXPECT_EQ(*out, rgba);
    EXPECT_EQ(sv::decompress_rgba(block, 72, 71).error(), sv::Error::SizeMismatch);
    EXPECT_EQ(sv::decompress_rgba(block, 0, 72).error(), sv::Error::ZeroDimension);
    EXPECT_EQ(sv::decompress_rgba(block, 65535, 65535).error(), sv::Error::TooLarge);
    Bytes broken = block;
    broken.resize(broken.size() / 2);
    EXPECT_EQ(sv::decompress_rgba(broken, 72, 72).error(), sv::Error::BadSnappy);
}

TEST(SpriteV1Pixels, AStrippedSpritePassesTheFullCheck) {
    EXPECT_FALSE(sv::check_pixels(sv::DefineSprite{30, 1440, 96, {}, "map band 0"}).has_value());
}

TEST(SpriteV1Chunking, SplitsOnlyOnMessageBoundariesAtTheCap) {
    // Three messages of 400,000 bytes: the first two fill 800,000, the third would pass 900,000.
    const auto chunks = sv::chunk_ranges({400'000, 800'000, 1'200'000});
    ASSERT_EQ(chunks.size(), 2u);
    EXPECT_EQ(chunks[0], std::make_pair(std::size_t{0}, std::size_t{800'000}));
    EXPECT_EQ(chunks[1], std::make_pair(std::size_t{800'000}, std::size_t{1'200'000}));
}

TEST(SpriteV1Chunking, ExactlyTheCapStaysInOneChunk) {
    EXPECT_EQ(sv::chunk_ranges({450'000, 900'000}).size(), 1u);
    EXPECT_EQ(sv::chunk_ranges({450'000, 900'001}).size(), 2u);
}

TEST(SpriteV1Chunking, AMessageLargerThanTheCapGoesAlone) {
    const auto chunks = sv::chunk_ranges({10, 1'000'010, 1'000'020});
    ASSERT_EQ(chunks.size(), 3u);
    EXPECT_EQ(chunks[1], std::make_pair(std::size_t{10}, std::size_t{1'000'010}));
    EXPECT_TRUE(sv::chunk_ranges({}).empty());
}

}  // namespace
}  // namespace hschool
