// The compact watch stream's codec beyond the vectors: every cut of a message, random garbage,
// lengths that lie, a zlib stream that would inflate far past its block, and packing a widened image.
#include <gtest/gtest.h>

#include <zlib.h>

#include <random>

#include "protocol/block_pixels.hpp"
#include "protocol/hns_compact.hpp"
#include "vectors.hpp"

namespace hschool {
namespace {

namespace hc = protocol::hns_compact;
namespace sv = protocol::sprite_v1;
using protocol::Bytes;

Bytes zlib_of(const Bytes& raw) {
    uLongf length = compressBound(static_cast<uLong>(raw.size()));
    Bytes out(length);
    EXPECT_EQ(compress2(out.data(), &length, raw.data(), static_cast<uLong>(raw.size()), 9), Z_OK);
    out.resize(length);
    return out;
}

TEST(HnsCompactCodec, EveryCutOfASingleMessageIsRefused) {
    const auto doc = test::load_vectors("hns_compact.json");
    int checked = 0;
    for (const auto& entry : doc.at("valid").as_array()) {
        const auto& v = entry.as_object();
        if (v.at("type").as_string() == "Frame") continue;  // a frame may be cut on a message boundary
        SCOPED_TRACE(std::string(v.at("name").as_string()));
        const Bytes bytes = test::from_hex(v.at("hex").as_string());
        for (std::size_t cut = 1; cut < bytes.size(); ++cut) {
            const Bytes prefix(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut));
            const auto decoded = hc::decode_checked(prefix);
            ASSERT_FALSE(decoded.ok()) << "cut at " << cut << " was accepted";
            // A cut inside a block's zlib is caught by its length first.
            EXPECT_EQ(decoded.error(), sv::Error::Truncated) << "cut at " << cut;
        }
        ++checked;
    }
    EXPECT_GE(checked, 10);
}

TEST(HnsCompactCodec, RandomBytesNeverDecodeIntoSomethingThatDoesNotEncodeBack) {
    std::mt19937 rng(31);
    int decoded_some = 0;
    for (int round = 0; round < 20000; ++round) {
        Bytes bytes(rng() % 64);
        for (auto& b : bytes) b = static_cast<std::uint8_t>(rng());
        if (!bytes.empty() && round % 2) bytes[0] = static_cast<std::uint8_t>(0x10 + rng() % 5);  // aim at our own types
        const auto decoded = hc::decode_checked(bytes);
        if (!decoded) continue;
        ++decoded_some;
        Bytes again;
        for (const auto& m : *decoded) ASSERT_FALSE(hc::append(again, m).has_value());
        EXPECT_EQ(again, bytes);
    }
    EXPECT_GT(decoded_some, 100);
}

TEST(HnsCompactCodec, ABlockThatWouldInflatePastItsSizeStopsThere) {
    // 16 MiB of zeros in ~16 KiB of zlib, declared as a 2×2 block: refused after 17 bytes of output.
    const Bytes bomb = zlib_of(Bytes(16u << 20, 0));
    ASSERT_LT(bomb.size(), 64u * 1024);
    hc::DefineBlock block{1, 2, 2, 1, bomb};
    EXPECT_EQ(hc::check_block(block), sv::Error::SizeMismatch);
    // Its length also passes for no small block: the codec refuses it before inflating anything.
    Bytes wire;
    EXPECT_EQ(hc::append(wire, block), sv::Error::TooLarge);
}

TEST(HnsCompactCodec, ALengthBeyondTheMessageIsTruncatedNotAnAllocation) {
    // A 4096×4096 block claiming 60 MB of zlib in a 20-byte message.
    Bytes lie{0x11, 0x00, 0x00, 0x00, 0x10, 0x00, 0x10, 0x01, 0x00, 0x00, 0x00, 0x04, 0x78, 0xDA};
    EXPECT_EQ(hc::decode(lie).error(), sv::Error::Truncated);
    const Bytes label_lie{0x13, 0x01, 0x00, 0xFF, 0xFF, 'a'};
    EXPECT_EQ(hc::decode(label_lie).error(), sv::Error::Truncated);
}

TEST(HnsCompactCodec, PackingFindsTheWideningScaleAndUnpackingGivesThePixelsBack) {
    // A 3×2 image widened ×2 to 6×4, with one odd pixel: exactly ×2, not ×1.
    const Bytes small{1, 2, 3, 255, 4, 5, 6, 255, 7, 8, 9, 128, 10, 11, 12, 0, 13, 14, 15, 255, 16, 17, 18, 1};
    Bytes wide(6 * 4 * 4);
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 6; ++x)
            for (int c = 0; c < 4; ++c) wide[static_cast<std::size_t>((y * 6 + x) * 4 + c)] = small[static_cast<std::size_t>(((y / 2) * 3 + x / 2) * 4 + c)];
    const auto packed = hc::pack_block(wide, 6, 4);
    EXPECT_EQ(packed.scale, 2);
    EXPECT_EQ(*hc::unpack_block({3, 6, 4, packed.scale, packed.zlib}), wide);
    // One pixel off the pattern and the image is packed as it is.
    wide[0] ^= 1;
    const auto plain = hc::pack_block(wide, 6, 4);
    EXPECT_EQ(plain.scale, 1);
    EXPECT_EQ(*hc::unpack_block({3, 6, 4, plain.scale, plain.zlib}), wide);
}

TEST(HnsCompactCodec, EncodingAMessageTheDecoderWouldRefuseFailsAndLeavesTheBufferAsItWas) {
    Bytes out{0xAB};
    EXPECT_EQ(hc::append(out, hc::FrameMark{1, 0x04}), sv::Error::BadFlags);
    EXPECT_EQ(hc::append(out, hc::DefineBlock{1, 3, 2, 2, zlib_of(Bytes(4, 0))}), sv::Error::BadScale);
    EXPECT_EQ(hc::append(out, hc::DefineBlock{1, 2, 2, 1, Bytes{1, 2, 3}}), sv::Error::BadZlib);
    EXPECT_EQ(out, Bytes{0xAB});
}

}  // namespace
}  // namespace hschool
