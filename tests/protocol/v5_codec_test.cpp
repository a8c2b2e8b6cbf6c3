// Protocol v5 beyond the golden vectors: every prefix and extension of a valid frame is rejected,
// limits hold with enough bytes behind them, and random frames survive encode and decode.
#include <gtest/gtest.h>

#include <random>

#include "protocol/v5.hpp"
#include "prefix_check.hpp"
#include "vectors.hpp"

namespace hschool {
namespace {

namespace p5 = protocol::v5;
using protocol::Bytes;
using protocol::DecodeError;

TEST(V5Codec, ClientPrefixesAndTrailingBytesAreRejected) { test::expect_every_prefix_rejected("v5.json", "client", p5::decode_client); }
TEST(V5Codec, ServerPrefixesAndTrailingBytesAreRejected) { test::expect_every_prefix_rejected("v5.json", "server", p5::decode_server); }

Bytes frame_header() {
    p5::Frame empty;
    Bytes bytes = p5::encode(empty);
    bytes.resize(p5::kFrameHeaderBytes);  // up to the leaves count
    return bytes;
}

TEST(V5Codec, SectionCountAboveTheMaximumIsRejectedEvenWithTheBytesBehindIt) {
    Bytes frame = frame_header();
    frame.push_back(0x00);  // 16384 leaves
    frame.push_back(0x40);
    frame.resize(frame.size() + 2 * 16384 + 4, 0);
    const auto decoded = p5::decode_server(frame);
    ASSERT_FALSE(decoded.ok());
    EXPECT_EQ(decoded.error(), DecodeError::CountTooLarge);
}

TEST(V5Codec, TheLargestSectionsDecode) {
    p5::Frame frame;
    frame.flags = p5::frame_flags::kKeyframe;
    for (std::uint16_t slot = 0; slot < p5::kMaxSectionCount; ++slot) frame.enters.push_back({slot, slot + 1u, slot, slot, 0xABCDEF});
    const Bytes bytes = p5::encode(frame);
    EXPECT_EQ(bytes.size(), p5::frame_bytes(frame));
    EXPECT_LE(bytes.size(), p5::kMaxServerFrameBytes);
    const auto decoded = p5::decode_server(bytes);
    ASSERT_TRUE(decoded.ok()) << protocol::describe(decoded.error());
    EXPECT_EQ(std::get<p5::Frame>(*decoded), frame);
}

p5::Update random_update(std::mt19937_64& rng) {
    p5::Update u;
    u.slot = static_cast<std::uint16_t>(rng() % p5::kSlotLimit);
    u.form = static_cast<std::uint8_t>(rng() % 4);
    if (u.form == p5::form::kDxDy || u.form == p5::form::kDx) u.dx = static_cast<std::int8_t>(rng());
    if (u.form == p5::form::kDxDy || u.form == p5::form::kDy) u.dy = static_cast<std::int8_t>(rng());
    if (u.form == p5::form::kFields) {
        u.fields = static_cast<std::uint8_t>(1 + rng() % 7);
        if (u.fields & p5::fields::kQx) u.qx = static_cast<std::uint16_t>(rng());
        if (u.fields & p5::fields::kQy) u.qy = static_cast<std::uint16_t>(rng());
        if (u.fields & p5::fields::kColour) u.colour = static_cast<std::uint32_t>(rng() % (p5::kMaxColour + 1));
    }
    return u;
}

TEST(V5Codec, RandomFramesSurviveEncodeAndDecode) {
    std::mt19937_64 rng(23);
    for (int round = 0; round < 500; ++round) {
        p5::Frame frame;
        frame.tick = static_cast<std::uint32_t>(rng());
        frame.base_tick = static_cast<std::uint32_t>(rng());
        frame.flags = static_cast<std::uint8_t>(rng() % 4);
        frame.ack_seq = static_cast<std::uint32_t>(rng());
        frame.input_queue = static_cast<std::uint8_t>(rng());
        frame.mask = static_cast<std::uint8_t>(rng());
        frame.self_x = static_cast<float>(rng() % 100000) / 8.0f;
        frame.self_y = static_cast<float>(rng() % 100000) / 8.0f;
        for (int n = static_cast<int>(rng() % 20); n > 0; --n) frame.leaves.push_back(static_cast<std::uint16_t>(rng()));
        for (int n = static_cast<int>(rng() % 20); n > 0; --n)
            frame.enters.push_back({static_cast<std::uint16_t>(rng()), static_cast<std::uint32_t>(rng()),
                                    static_cast<std::uint16_t>(rng()), static_cast<std::uint16_t>(rng()),
                                    static_cast<std::uint32_t>(rng() % (p5::kMaxColour + 1))});
        for (int n = static_cast<int>(rng() % 40); n > 0; --n) frame.updates.push_back(random_update(rng));
        if (frame.flags & p5::frame_flags::kFarGrid) {
            frame.far_cols = static_cast<std::uint8_t>(rng() % 20);
            frame.far_rows = static_cast<std::uint8_t>(rng() % 20);
            frame.far.resize(std::size_t{frame.far_cols} * frame.far_rows);
            for (auto& c : frame.far) c = static_cast<std::uint8_t>(rng());
        }
        const Bytes bytes = p5::encode(frame);
        ASSERT_EQ(bytes.size(), p5::frame_bytes(frame));
        const auto decoded = p5::decode_server(bytes);
        ASSERT_TRUE(decoded.ok()) << protocol::describe(decoded.error());
        ASSERT_EQ(std::get<p5::Frame>(*decoded), frame);

        // The server's fast path: the same Frame with its update records encoded in advance.
        Bytes records;
        for (const auto& u : frame.updates) p5::append_update(u, records);
        p5::Frame without = frame;
        without.updates.clear();
        Bytes in_place{0xAB};  // appended behind what the buffer holds
        p5::encode_into(without, p5::EncodedUpdates{static_cast<std::uint16_t>(frame.updates.size()), records}, in_place);
        ASSERT_EQ(Bytes(in_place.begin() + 1, in_place.end()), bytes) << "round " << round;
    }
}

TEST(V5Codec, RandomBytesNeverCrashTheDecoders) {
    std::mt19937_64 rng(5);
    int rejected = 0;
    for (int round = 0; round < 20000; ++round) {
        Bytes frame(rng() % 96);
        for (auto& b : frame) b = static_cast<std::uint8_t>(rng());
        if (!frame.empty() && round % 2 == 0) frame[0] = static_cast<std::uint8_t>(0x81 + rng() % 5);
        rejected += !p5::decode_client(frame).ok();
        rejected += !p5::decode_server(frame).ok();
    }
    EXPECT_GT(rejected, 0);
}

}  // namespace
}  // namespace hschool
