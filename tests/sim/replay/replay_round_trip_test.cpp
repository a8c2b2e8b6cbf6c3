#include <gtest/gtest.h>

#include "replay_test_support.hpp"
#include "sim/replay/replay_format.hpp"
#include "sim/replay/replay_reader.hpp"
#include "sim/replay/replay_verify.hpp"

namespace hschool::sim::replay {
namespace {

using namespace testing;

constexpr std::uint32_t kTicks = 400;

TEST(ReplayRoundTrip, RecordedSessionVerifiesTickForTick) {
    const auto recording = record_session(kTicks);
    const auto verdict = verify_replay(recording.bytes);
    EXPECT_TRUE(verdict.matched());
    EXPECT_FALSE(verdict.first_mismatch_tick.has_value());
    EXPECT_EQ(verdict.error, ReplayError::None);
    EXPECT_EQ(verdict.ticks_checked, kTicks);
    EXPECT_EQ(describe(verdict), "all 400 ticks matched");
}

TEST(ReplayRoundTrip, ReaderGivesBackExactlyWhatWasRecorded) {
    arena::ArenaSettings settings;
    settings.seed = 99;
    settings.obstacle_count = 5;
    const auto recording = record_session(120, 8, settings);
    ReplayReader reader(recording.bytes);
    ASSERT_TRUE(reader.header_ok());
    EXPECT_EQ(reader.settings(), settings);
    ReplayTick tick;
    std::uint32_t count = 0;
    bool saw_join = false, saw_leave = false, saw_input = false;
    while (reader.next(tick)) {
        ASSERT_LT(count, recording.commands_per_tick.size());
        EXPECT_EQ(tick.tick, count + 1);
        EXPECT_EQ(tick.commands, recording.commands_per_tick[count]);
        EXPECT_EQ(tick.hash, recording.hashes[count]);
        for (const auto& c : tick.commands) {
            saw_join |= std::holds_alternative<arena::JoinCommand>(c);
            saw_leave |= std::holds_alternative<arena::LeaveCommand>(c);
            saw_input |= std::holds_alternative<arena::InputCommand>(c);
        }
        ++count;
    }
    EXPECT_EQ(reader.error(), ReplayError::None);
    EXPECT_EQ(count, 120u);
    EXPECT_TRUE(saw_join && saw_leave && saw_input) << "the script should exercise every command";
}

TEST(ReplayRoundTrip, TakeChunkHandsOverEverythingOnceAndInOrder) {
    const arena::ArenaSettings settings;
    ReplayWriter writer(settings);
    EXPECT_EQ(writer.pending_bytes(), kHeaderBytes);
    auto header = writer.take_chunk();
    EXPECT_EQ(header, encode_header(settings));
    EXPECT_EQ(writer.pending_bytes(), 0u);
    writer.record(1, {}, 0x1122334455667788ull);
    const auto record = writer.take_chunk();
    // An empty tick: marker, tick, zero count, hash.
    const protocol::Bytes expected = {'T', 1, 0, 0, 0, 0, 0, 0, 0, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11};
    EXPECT_EQ(record, expected);
    EXPECT_TRUE(writer.take_chunk().empty());
}

TEST(ReplayRoundTrip, HeaderOnlyReplayHasZeroTicks) {
    const auto verdict = verify_replay(encode_header(arena::ArenaSettings{}));
    EXPECT_TRUE(verdict.matched());
    EXPECT_EQ(verdict.ticks_checked, 0u);
}

TEST(ReplayTamper, FlippedHashByteReportsThatTick) {
    const auto recording = record_session(50);
    const auto ends = record_ends(recording.bytes);
    ASSERT_EQ(ends.size(), 51u);
    for (std::uint32_t tick : {1u, 17u, 50u}) {
        auto bytes = recording.bytes;
        bytes[ends[tick] - 3] ^= 0x01;  // inside the hash, the last 8 bytes of the record
        const auto verdict = verify_replay(bytes);
        ASSERT_TRUE(verdict.first_mismatch_tick.has_value());
        EXPECT_EQ(*verdict.first_mismatch_tick, tick);
        EXPECT_EQ(verdict.ticks_checked, tick);
        EXPECT_FALSE(verdict.matched());
        EXPECT_EQ(describe(verdict), "hash mismatch at tick " + std::to_string(tick));
    }
}

TEST(ReplayTamper, ChangedInputReportsTheTickItWasAppliedIn) {
    const arena::ArenaSettings settings;
    arena::ArenaWorld world(settings);
    ReplayWriter writer(settings);
    std::uint32_t player = 0;
    for (std::uint32_t tick = 1; tick <= 10; ++tick) {
        std::vector<arena::ArenaCommand> commands;
        if (tick == 1) commands.push_back(arena::JoinCommand{"Ann"});
        if (tick == 6) commands.push_back(arena::InputCommand{player, 1, protocol::v1::buttons::kRight});
        for (const auto& c : commands)
            if (auto id = world.apply(c)) player = id;
        world.step();
        writer.record(world.tick(), commands, world.state_hash());
    }
    auto bytes = writer.take_chunk();
    ASSERT_TRUE(verify_replay(bytes).matched());
    const auto ends = record_ends(bytes);
    // Record 6: marker 1, tick 4, count 4, tag 1, player 4, sequence 4, then the buttons byte.
    const std::size_t buttons_at = ends[5] + 1 + 4 + 4 + 1 + 4 + 4;
    ASSERT_EQ(bytes[buttons_at], protocol::v1::buttons::kRight);
    bytes[buttons_at] = protocol::v1::buttons::kLeft;
    const auto verdict = verify_replay(bytes);
    ASSERT_TRUE(verdict.first_mismatch_tick.has_value());
    EXPECT_EQ(*verdict.first_mismatch_tick, 6u);
}

}  // namespace
}  // namespace hschool::sim::replay
