// The metrics file's counters: bytes by Sprite v1 message kind (the reference's split), frames by
// how the pacer let them go, and the JSON shape the bitworld servers write.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "server/hns/contract/metrics_file.hpp"

namespace hschool::server::hns {
namespace {

protocol::Bytes bytes(std::initializer_list<int> values) {
    protocol::Bytes out;
    for (int v : values) out.push_back(static_cast<std::uint8_t>(v));
    return out;
}

TEST(HnsTraffic, SplitsImagesObjectsAndTheRest) {
    // Define Sprite 7 (2x2, N=3 pixel bytes, label "ab"), Define Object, Delete, Clear, Viewport, Layer.
    auto m = bytes({0x01, 7, 0, 2, 0, 2, 0, 3, 0, 0, 0, 9, 9, 9, 2, 0, 'a', 'b'});
    const auto rest = bytes({0x02, 3, 0, 10, 0, 20, 0, 0, 0, 0, 7, 0, 0x03, 3, 0, 0x04, 0x05, 0, 0xD0, 0x02, 0x90, 0x01, 0x06, 0, 0, 1});
    m.insert(m.end(), rest.begin(), rest.end());
    SeatTraffic t;
    count_sprite_traffic(m, t);
    EXPECT_EQ(t.total, m.size());
    EXPECT_EQ(t.image, 18U);
    EXPECT_EQ(t.object, 12U + 3U + 1U);
    EXPECT_EQ(t.other, 6U + 4U);
}

TEST(HnsTraffic, ATruncatedOrUnknownMessageCountsTheRestAsOther) {
    SeatTraffic t;
    count_sprite_traffic(bytes({0x04, 0x02, 1, 2}), t);  // a Define Object cut short
    EXPECT_EQ(t.object, 1U);
    EXPECT_EQ(t.other, 3U);
    SeatTraffic u;
    count_sprite_traffic(bytes({0x7F, 0x04, 0x04}), u);  // unknown first: nothing after it is trusted
    EXPECT_EQ(u.other, 3U);
    EXPECT_EQ(u.object, 0U);
    SeatTraffic v;
    count_sprite_traffic(bytes({0x01, 7, 0, 2, 0, 2, 0, 0xFF, 0xFF, 0xFF, 0x7F}), v);  // N far past the end
    EXPECT_EQ(v.other, 11U);
    SeatTraffic empty;
    count_sprite_traffic({}, empty);
    EXPECT_EQ(empty.total, 0U);
}

TEST(HnsTraffic, FramesAreSkippedWaitedOrLate) {
    FrameCounts f;
    count_frame(f, PaceDecision::AllReady, 5'000);
    count_frame(f, PaceDecision::FrameElapsed, kFrameMicros);
    count_frame(f, PaceDecision::AllReady, kFrameMicros + 1);  // ready, but only after the slot: on time
    count_frame(f, PaceDecision::FrameElapsed, kFrameMicros + kLateFrameSlackMicros + 1);
    EXPECT_EQ(f.skipped, 1U);
    EXPECT_EQ(f.waited, 2U);
    EXPECT_EQ(f.late, 1U);
}

TEST(HnsTraffic, TheMetricsJsonHasTheReferenceKeys) {
    FrameCounts f{3, 2, 1};
    SeatTraffic t{100, 60, 30, 10};
    const auto value = boost::json::parse(metrics_json(950, f, {SeatMetrics{0, "alpha", t}, SeatMetrics{1, "bravo", {}}}));
    const auto& o = value.as_object();
    EXPECT_EQ(o.at("ticks").as_int64(), 950);
    EXPECT_EQ(o.at("frames").as_object().at("total").to_number<std::uint64_t>(), 6U);
    EXPECT_TRUE(o.at("objectPools").as_object().empty());
    const auto& players = o.at("players").as_array();
    ASSERT_EQ(players.size(), 2U);
    const auto& alpha = players[0].as_object();
    EXPECT_EQ(alpha.at("name").as_string(), "alpha");
    EXPECT_EQ(alpha.at("bytesTotal").to_number<std::uint64_t>(), 100U);
    EXPECT_EQ(alpha.at("bytesImage").to_number<std::uint64_t>(), 60U);
    EXPECT_EQ(alpha.at("bytesObject").to_number<std::uint64_t>(), 30U);
    EXPECT_EQ(alpha.at("bytesOther").to_number<std::uint64_t>(), 10U);
    EXPECT_EQ(players[1].as_object().at("slot").as_int64(), 1);
}

}  // namespace
}  // namespace hschool::server::hns
