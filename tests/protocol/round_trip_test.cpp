// Random messages survive encode → decode, and random bytes never crash a decoder.
#include <gtest/gtest.h>

#include <random>

#include "protocol/v1.hpp"
#include "protocol/v4.hpp"

namespace hschool {
namespace {

namespace p1 = protocol::v1;
namespace p4 = protocol::v4;
using protocol::Bytes;

constexpr int kRounds = 500;

std::string random_text(std::mt19937_64& rng, std::size_t max_bytes) {
    static const std::vector<std::string> pieces{"a", "Z", "7", " ", "й", "Ж", "€", "😀", "«", "»"};
    std::string out;
    std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1);
    const std::size_t target = std::uniform_int_distribution<std::size_t>(0, max_bytes)(rng);
    while (true) {
        const auto& piece = pieces[pick(rng)];
        if (out.size() + piece.size() > target) break;
        out += piece;
    }
    return out;
}

TEST(RoundTrip, V1MessagesSurviveEncodeAndDecode) {
    std::mt19937_64 rng(11);
    for (int round = 0; round < kRounds; ++round) {
        const p1::Hello hello{static_cast<std::uint8_t>(rng()), random_text(rng, p1::kMaxNameBytes)};
        EXPECT_EQ(std::get<p1::Hello>(*p1::decode_client(p1::encode(hello))), hello);
        const p1::Input input{static_cast<std::uint32_t>(rng()), static_cast<std::uint8_t>(rng())};
        EXPECT_EQ(std::get<p1::Input>(*p1::decode_client(p1::encode(input))), input);
        const p1::Ping ping{static_cast<std::int64_t>(rng())};
        EXPECT_EQ(std::get<p1::Ping>(*p1::decode_client(p1::encode(ping))), ping);
        p1::Snapshot snap{static_cast<std::uint32_t>(rng()), {}};
        snap.entities.resize(rng() % 50);
        for (auto& e : snap.entities)
            e = {static_cast<std::uint32_t>(rng()), static_cast<std::uint8_t>(rng() % 3), float(rng() % 1600) / 4,
                 float(rng() % 900) / 4, 16, static_cast<std::uint32_t>(rng() & 0xFFFFFF)};
        const Bytes frame = p1::encode(snap);
        EXPECT_EQ(frame.size(), p1::snapshot_bytes(snap.entities.size()));
        EXPECT_EQ(std::get<p1::Snapshot>(*p1::decode_server(frame)), snap);
    }
}

TEST(RoundTrip, V4MessagesSurviveEncodeAndDecode) {
    std::mt19937_64 rng(12);
    for (int round = 0; round < kRounds; ++round) {
        const p4::Clock clock{static_cast<std::int32_t>(rng()), static_cast<std::int64_t>(rng()),
                              static_cast<std::uint8_t>(rng() % 2), static_cast<std::uint8_t>(rng() % 5)};
        const Bytes frame = p4::encode(clock);
        EXPECT_EQ(frame.size(), 15U);
        EXPECT_EQ(std::get<p4::Clock>(*p4::decode_server(frame)), clock);
        p4::MapSnapshot map{static_cast<std::int32_t>(rng()), {}};
        map.nodes.resize(rng() % 20);
        for (auto& n : map.nodes) {
            n.kind = static_cast<std::uint8_t>(rng() % 4);
            n.id = random_text(rng, 20);
            n.parent = random_text(rng, 20);
            n.name = random_text(rng, 60);
            n.items.resize(rng() % 5);
            for (auto& item : n.items) item = random_text(rng, 30);
            n.positions.resize(rng() % 5);
            for (auto& pos : n.positions) pos = random_text(rng, 30);
        }
        EXPECT_EQ(std::get<p4::MapSnapshot>(*p4::decode_server(p4::encode(map))), map);
    }
}

TEST(RoundTrip, MapSnapshotLargerThanTheInboundLimitEncodesWhole) {
    p4::MapSnapshot map{1, {}};
    for (int n = 0; n < 400; ++n) map.nodes.push_back({3, "room-" + std::to_string(n), "floor-1", "Кабинет физики", {"Парта", "Доска"}, {"Место 1"}});
    const Bytes frame = p4::encode(map);
    EXPECT_GT(frame.size(), p4::kMaxInboundFrameBytes);
    EXPECT_EQ(std::get<p4::MapSnapshot>(*p4::decode_server(frame)), map);
}

TEST(RoundTrip, RandomBytesNeverCrashAnyDecoder) {
    std::mt19937_64 rng(13);
    int rejected = 0;
    for (int round = 0; round < 20000; ++round) {
        Bytes frame(rng() % 64);
        for (auto& b : frame) b = static_cast<std::uint8_t>(rng());
        if (!frame.empty() && round % 2 == 0) frame[0] = static_cast<std::uint8_t>(round % 7 == 0 ? 0x85 : (rng() % 7));
        rejected += !p1::decode_client(frame).ok();
        rejected += !p1::decode_server(frame).ok();
        rejected += !p4::decode_client(frame).ok();
        rejected += !p4::decode_server(frame).ok();
    }
    EXPECT_GT(rejected, 0);
}

}  // namespace
}  // namespace hschool
