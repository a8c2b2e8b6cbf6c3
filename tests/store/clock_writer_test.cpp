#include "store/clock_writer.hpp"

#include <chrono>
#include <mutex>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

namespace hschool::store {
namespace {

// Long enough that nothing is written unless a test asks for it.
constexpr std::chrono::milliseconds kNeverOnItsOwn = std::chrono::hours{1};
constexpr std::chrono::milliseconds kShortInterval{10};
constexpr std::chrono::milliseconds kGenerousTimeout = std::chrono::seconds{30};

// Records every batch the writer hands over; can be told to fail.
struct RecordingSink {
    std::mutex mutex;
    std::vector<ClockBatch> batches;
    bool fail = false;

    ClockWriter::WriteBatch writer() {
        return [this](const ClockBatch& batch) -> std::optional<StoreError> {
            const std::lock_guard lock(mutex);
            if (fail) return StoreError{StoreErrorKind::Io, "disk on fire"};
            batches.push_back(batch);
            return std::nullopt;
        };
    }
    std::vector<ClockBatch> taken() {
        const std::lock_guard lock(mutex);
        return batches;
    }
};

TEST(ClockWriter, FlushWritesOnlyTheLatestStatePerSchoolInOneBatch) {
    RecordingSink sink;
    ClockWriter writer(sink.writer(), kNeverOnItsOwn);
    for (std::int64_t tick = 1; tick <= 100; ++tick) {
        writer.queue(1, ClockState{tick, true, 1});
        writer.queue(2, ClockState{1000 + tick, tick % 2 == 0, 4});
    }
    EXPECT_FALSE(writer.flush().has_value());

    const auto batches = sink.taken();
    ASSERT_EQ(batches.size(), 1u);
    ASSERT_EQ(batches[0].size(), 2u);
    EXPECT_EQ(batches[0].at(1).game_time_ms, 100);
    EXPECT_EQ(batches[0].at(2).game_time_ms, 1100);
    EXPECT_TRUE(batches[0].at(2).running);
    EXPECT_EQ(batches[0].at(2).speed_index, 4);
}

TEST(ClockWriter, FlushWithNothingQueuedWritesNothing) {
    RecordingSink sink;
    ClockWriter writer(sink.writer(), kNeverOnItsOwn);
    EXPECT_FALSE(writer.flush().has_value());
    EXPECT_TRUE(sink.taken().empty());
}

TEST(ClockWriter, BackgroundWriterCommitsWithoutBeingFlushed) {
    RecordingSink sink;
    ClockWriter writer(sink.writer(), kShortInterval);
    writer.queue(7, ClockState{42, false, 0});
    ASSERT_TRUE(writer.wait_for_background_commit(kGenerousTimeout));

    const auto batches = sink.taken();
    ASSERT_FALSE(batches.empty());
    EXPECT_EQ(batches.back().at(7).game_time_ms, 42);
    EXPECT_FALSE(batches.back().at(7).running);
}

TEST(ClockWriter, ForgottenSchoolIsNotWritten) {
    RecordingSink sink;
    ClockWriter writer(sink.writer(), kNeverOnItsOwn);
    writer.queue(1, ClockState{10, true, 1});
    writer.queue(2, ClockState{20, true, 1});
    writer.forget(1);
    EXPECT_FALSE(writer.flush().has_value());

    const auto batches = sink.taken();
    ASSERT_EQ(batches.size(), 1u);
    EXPECT_EQ(batches[0].count(1), 0u);
    EXPECT_EQ(batches[0].at(2).game_time_ms, 20);
}

TEST(ClockWriter, FailedWriteIsReportedAndRetriedWithNewerStateWinning) {
    RecordingSink sink;
    ClockWriter writer(sink.writer(), kNeverOnItsOwn);
    sink.fail = true;
    writer.queue(1, ClockState{10, true, 1});
    writer.queue(2, ClockState{20, true, 1});
    const auto failure = writer.flush();
    ASSERT_TRUE(failure.has_value());
    EXPECT_EQ(failure->kind, StoreErrorKind::Io);
    EXPECT_TRUE(writer.last_error().has_value());

    {
        const std::lock_guard lock(sink.mutex);
        sink.fail = false;
    }
    writer.queue(1, ClockState{11, false, 2});
    EXPECT_FALSE(writer.flush().has_value());
    EXPECT_FALSE(writer.last_error().has_value());

    const auto batches = sink.taken();
    ASSERT_EQ(batches.size(), 1u);
    EXPECT_EQ(batches[0].at(1).game_time_ms, 11);  // the newer state, not the failed one
    EXPECT_EQ(batches[0].at(2).game_time_ms, 20);  // the failed one, retried
}

TEST(ClockWriter, StopWritesWhatIsQueuedAndLaterQueuesAreDropped) {
    RecordingSink sink;
    ClockWriter writer(sink.writer(), kNeverOnItsOwn);
    writer.queue(3, ClockState{30, true, 1});
    writer.stop();
    writer.queue(3, ClockState{31, true, 1});
    writer.stop();  // idempotent
    EXPECT_FALSE(writer.flush().has_value());

    const auto batches = sink.taken();
    ASSERT_EQ(batches.size(), 1u);
    EXPECT_EQ(batches[0].at(3).game_time_ms, 30);
}

TEST(ClockWriter, APauseQueuedBeforeLaterTicksStaysAControl) {
    RecordingSink sink;
    ClockWriter writer(sink.writer(), kNeverOnItsOwn);
    writer.queue(1, ClockState{10, false, 2, /*control=*/true});
    writer.queue(1, ClockState{11, false, 2});  // the next tick, which alone would be time passing
    writer.queue(2, ClockState{20, true, 1});
    EXPECT_FALSE(writer.flush().has_value());
    const auto batches = sink.taken();
    ASSERT_EQ(batches.size(), 1u);
    EXPECT_TRUE(batches[0].at(1).control);
    EXPECT_EQ(batches[0].at(1).game_time_ms, 11);
    EXPECT_FALSE(batches[0].at(2).control);
}

TEST(ClockWriter, AControlWhoseWriteFailedIsRetriedAsAControl) {
    RecordingSink sink;
    sink.fail = true;
    ClockWriter writer(sink.writer(), kNeverOnItsOwn);
    writer.queue(1, ClockState{10, false, 2, /*control=*/true});
    EXPECT_TRUE(writer.flush().has_value());
    writer.queue(1, ClockState{12, false, 2});
    sink.fail = false;
    EXPECT_FALSE(writer.flush().has_value());
    const auto batches = sink.taken();
    ASSERT_EQ(batches.size(), 1u);
    EXPECT_TRUE(batches[0].at(1).control);
    EXPECT_EQ(batches[0].at(1).game_time_ms, 12);
}

}  // namespace
}  // namespace hschool::store
