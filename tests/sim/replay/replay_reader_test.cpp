#include <gtest/gtest.h>

#include "protocol/bytes.hpp"
#include "replay_test_support.hpp"
#include "sim/replay/replay_format.hpp"
#include "sim/replay/replay_reader.hpp"
#include "sim/replay/replay_verify.hpp"

namespace hschool::sim::replay {
namespace {

using namespace testing;

protocol::Bytes header() { return encode_header(arena::ArenaSettings{}); }

// A header followed by hand-written record bytes.
protocol::Bytes with_record(std::initializer_list<std::uint8_t> record) {
    auto bytes = header();
    bytes.insert(bytes.end(), record);
    return bytes;
}

ReplayError first_record_error(const protocol::Bytes& bytes) {
    ReplayReader reader(bytes);
    EXPECT_TRUE(reader.header_ok());
    ReplayTick tick;
    EXPECT_FALSE(reader.next(tick));
    return reader.error();
}

TEST(ReplayTruncation, EveryCutVerifiesUpToTheLastCompleteTick) {
    const auto recording = record_session(30);
    const auto ends = record_ends(recording.bytes);
    std::size_t complete = 0;
    for (std::size_t cut = 0; cut <= recording.bytes.size(); ++cut) {
        const protocol::ByteView prefix(recording.bytes.data(), cut);
        const auto verdict = verify_replay(prefix);
        while (complete + 1 < ends.size() && ends[complete + 1] <= cut) ++complete;
        EXPECT_FALSE(verdict.first_mismatch_tick.has_value()) << "cut " << cut;
        if (cut < kHeaderBytes) {
            EXPECT_TRUE(is_header_error(verdict.error)) << "cut " << cut;
            EXPECT_FALSE(verdict.matched());
        } else if (cut == ends[complete]) {
            EXPECT_EQ(verdict.error, ReplayError::None) << "cut " << cut;
            EXPECT_EQ(verdict.ticks_checked, complete);
        } else {
            EXPECT_TRUE(verdict.truncated()) << "cut " << cut;
            EXPECT_TRUE(verdict.matched()) << "cut " << cut;
            EXPECT_EQ(verdict.ticks_checked, complete) << "cut " << cut;
        }
    }
}

TEST(ReplayTruncation, TruncatedVerdictSaysSo) {
    auto bytes = record_session(10).bytes;
    bytes.pop_back();
    const auto verdict = verify_replay(bytes);
    EXPECT_EQ(verdict.ticks_checked, 9u);
    EXPECT_EQ(describe(verdict),
              "all 9 ticks matched; the replay is truncated after tick 9 (the last record was cut off)");
}

TEST(ReplayHeader, RejectsWhatIsNotAReplay) {
    EXPECT_EQ(ReplayReader(protocol::Bytes{}).error(), ReplayError::Empty);
    EXPECT_EQ(ReplayReader(protocol::Bytes{'{', '"', 'a'}).error(), ReplayError::BadMagic);
    auto bytes = header();
    bytes[4] = 2;  // format version 2
    EXPECT_EQ(ReplayReader(bytes).error(), ReplayError::UnsupportedVersion);
    bytes = header();
    bytes.resize(kHeaderBytes - 1);
    EXPECT_EQ(ReplayReader(bytes).error(), ReplayError::HeaderTruncated);
    bytes = header();
    bytes[kHeaderBytes - 1] = 0;  // tick rate 0
    EXPECT_EQ(ReplayReader(bytes).error(), ReplayError::InvalidSettings);
    bytes = header();
    for (std::size_t i = 14; i < 18; ++i) bytes[i] = 0xFF;  // width: NaN
    EXPECT_EQ(ReplayReader(bytes).error(), ReplayError::InvalidSettings);
    EXPECT_EQ(describe(verify_replay(bytes)), "not a readable replay: the header's arena settings are invalid");
}

TEST(ReplayRecords, MalformedRecordsAreNamed) {
    EXPECT_EQ(first_record_error(with_record({'X', 1, 0, 0, 0, 0, 0, 0, 0})), ReplayError::BadRecordMarker);
    EXPECT_EQ(first_record_error(with_record({'T', 2, 0, 0, 0, 0, 0, 0, 0})), ReplayError::TickOutOfOrder);
    EXPECT_EQ(first_record_error(with_record({'T', 1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF})),
              ReplayError::TooManyCommands);
    EXPECT_EQ(first_record_error(with_record({'T', 1, 0, 0, 0, 1, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0})),
              ReplayError::UnknownCommand);
    EXPECT_EQ(first_record_error(with_record({'T', 1, 0, 0, 0, 1, 0, 0, 0, 1, 33})), ReplayError::NameTooLong);
    EXPECT_EQ(first_record_error(with_record({'T', 1, 0, 0, 0, 1, 0, 0, 0, 1, 2, 0xC3, 0x28})),
              ReplayError::InvalidName);
}

TEST(ReplayRecords, CountLargerThanTheBytesLeftIsTruncationNotAnAllocation) {
    // 1,000,000 commands claimed with nothing behind them: refused before any reserve().
    EXPECT_EQ(first_record_error(with_record({'T', 1, 0, 0, 0, 0x40, 0x42, 0x0F, 0x00})),
              ReplayError::RecordTruncated);
}

TEST(ReplayRecords, RecordAfterAMalformedOneIsNotRead) {
    auto bytes = with_record({'X'});
    ReplayReader reader(bytes);
    ReplayTick tick;
    EXPECT_FALSE(reader.next(tick));
    EXPECT_FALSE(reader.next(tick));
    EXPECT_EQ(reader.error(), ReplayError::BadRecordMarker);
}

TEST(ReplayGarbage, RandomBytesNeverVerify) {
    arena::SplitMix64 noise(2024);
    for (int round = 0; round < 500; ++round) {
        protocol::Bytes bytes(noise.next() % 200);
        for (auto& b : bytes) b = static_cast<std::uint8_t>(noise.next());
        const auto verdict = verify_replay(bytes);
        EXPECT_FALSE(verdict.matched()) << "round " << round;
        EXPECT_NE(verdict.error, ReplayError::None) << "round " << round;
    }
}

TEST(ReplayGarbage, RandomRecordsBehindAValidHeaderNeverCrash) {
    arena::SplitMix64 noise(77);
    for (int round = 0; round < 500; ++round) {
        auto bytes = header();
        bytes.push_back(kTickMarker);
        bytes.insert(bytes.end(), {1, 0, 0, 0});
        const std::size_t tail = noise.next() % 64;
        for (std::size_t i = 0; i < tail; ++i) bytes.push_back(static_cast<std::uint8_t>(noise.next()));
        const auto verdict = verify_replay(bytes);
        // Either the bytes were rejected, or they formed a record whose random hash cannot match.
        EXPECT_TRUE(verdict.error != ReplayError::None || verdict.first_mismatch_tick.has_value())
            << "round " << round;
    }
}

}  // namespace
}  // namespace hschool::sim::replay
