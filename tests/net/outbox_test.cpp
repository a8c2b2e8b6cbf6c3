// The per-connection outbox: Welcome first, drop-oldest ticks, a bounded reliable queue.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>

#include "net/close_codes.hpp"
#include "net/limits.hpp"
#include "net/outbox.hpp"

namespace hschool::net {
namespace {

Frame frame_of(std::uint8_t tag) { return make_frame(protocol::Bytes{tag}); }

struct Recorder {
    int wakes = 0;
    std::shared_ptr<Outbox> outbox = std::make_shared<Outbox>([this] { ++wakes; });
    // Drains like the session's writer would, returning the tags in write order.
    std::vector<std::uint8_t> drain() {
        std::vector<std::uint8_t> tags;
        while (true) {
            auto next = outbox->next();
            if (!next.frame) break;
            tags.push_back(next.frame->payload()[0]);
        }
        return tags;
    }
};

TEST(WireFrame, FramedInPlaceEqualsFramedByCopy) {
    for (std::size_t size : {3u, 200u, 70000u}) {
        protocol::Bytes message(size);
        for (std::size_t i = 0; i < size; ++i) message[i] = static_cast<std::uint8_t>(i * 31 + 7);
        const Frame copied = make_frame(message);
        const Frame in_place = framed_in_place([&](protocol::Bytes& out) { out.insert(out.end(), message.begin(), message.end()); });
        EXPECT_TRUE(std::ranges::equal(in_place->wire(), copied->wire())) << size;
        EXPECT_TRUE(std::ranges::equal(in_place->payload(), message)) << size;
        EXPECT_EQ(in_place->size(), copied->size());
    }
}

TEST(Outbox, NothingLeavesBeforeWelcomeAndWelcomeLeavesFirst) {
    Recorder r;
    r.outbox->push_reliable(frame_of(2));  // a Pong answered before the loop has welcomed us
    r.outbox->push_tick(frame_of(9));      // tick frames before Welcome are worthless
    EXPECT_EQ(r.wakes, 0);
    EXPECT_TRUE(r.drain().empty());
    r.outbox->push_welcome(frame_of(1));
    EXPECT_EQ(r.wakes, 1);
    EXPECT_EQ(r.drain(), (std::vector<std::uint8_t>{1, 2}));
}

TEST(Outbox, TickRingDropsTheOldestWhenFull) {
    Recorder r;
    r.outbox->push_welcome(frame_of(0));
    std::size_t dropped = 0;
    for (int i = 1; i <= static_cast<int>(kTickFrameRing) + 5; ++i) dropped += r.outbox->push_tick(frame_of(static_cast<std::uint8_t>(i)));
    EXPECT_EQ(dropped, 5U);
    EXPECT_EQ(r.outbox->queued_ticks(), kTickFrameRing);
    const auto tags = r.drain();
    ASSERT_EQ(tags.size(), kTickFrameRing + 1);
    EXPECT_EQ(tags[0], 0);  // Welcome
    EXPECT_EQ(tags[1], 6);  // 1..5 went, the newest 32 stayed
    EXPECT_EQ(tags.back(), kTickFrameRing + 5);
}

TEST(Outbox, ReliableFramesAreNeverCrowdedOutByTicks) {
    Recorder r;
    r.outbox->push_welcome(frame_of(0));
    for (int i = 0; i < 100; ++i) r.outbox->push_tick(frame_of(50));
    r.outbox->push_reliable(frame_of(7));
    const auto tags = r.drain();
    EXPECT_EQ(tags[0], 0);
    EXPECT_EQ(tags[1], 7);  // written before any queued tick
    EXPECT_EQ(std::count(tags.begin(), tags.end(), 7), 1);
}

// Fills the reliable queue past its bound; the close request it leads to.
std::optional<CloseRequest> overflow_reliable(Recorder& r) {
    r.outbox->push_welcome(frame_of(0));
    bool accepted = true;
    for (std::size_t i = 0; i < kMaxReliableFrames + 1 && accepted; ++i) accepted = r.outbox->push_reliable(frame_of(3));
    EXPECT_FALSE(accepted);
    EXPECT_FALSE(r.outbox->push_reliable(frame_of(4)));
    return r.outbox->next().close;
}

// Issue 42: frames that pile up behind a full socket are the reader's lag (1008 not_reading); behind
// a writer that never ran, the server's (1013 server_behind).
TEST(Outbox, OverflowingTheReliableQueueClosesForWhoeverIsBehind) {
    for (const bool socket_full : {true, false}) {
        SCOPED_TRACE(socket_full ? "behind a full socket" : "behind a writer that did not run");
        Recorder r;
        r.outbox->set_socket_full(socket_full);  // a full socket: the reader does not take what the writer offers
        const auto close = overflow_reliable(r);
        ASSERT_TRUE(close.has_value());
        EXPECT_EQ(close->code, socket_full ? close_code::kPolicyViolation : close_code::kTryAgainLater);
        EXPECT_EQ(close->cause, socket_full ? CloseCause::NotReading : CloseCause::ServerBehind);
    }
}

TEST(Outbox, AWriterBehindCallsTheSenderBackWhenItHasCaughtUp) {
    Recorder r;
    int calls = 0;
    r.outbox->on_writer_caught_up([&] { ++calls; });
    r.outbox->push_welcome(frame_of(0));
    for (int i = 0; i < 5; ++i) r.outbox->push_reliable(frame_of(3));  // welcome + 5 waiting
    EXPECT_FALSE(r.outbox->writer_behind(6));
    ASSERT_TRUE(r.outbox->writer_behind(2));
    for (int i = 0; i < 3; ++i) r.outbox->next();  // welcome and two: three waiting
    EXPECT_EQ(calls, 0);
    r.outbox->next();  // two waiting: caught up
    EXPECT_EQ(calls, 1);
    r.outbox->next();
    EXPECT_EQ(calls, 1) << "one call per writer_behind";
}

TEST(Outbox, AFullSocketOrACloseEndsTheWaitForTheWriter) {
    Recorder r;
    int calls = 0;
    r.outbox->on_writer_caught_up([&] { ++calls; });
    r.outbox->push_welcome(frame_of(0));
    for (int i = 0; i < 5; ++i) r.outbox->push_reliable(frame_of(3));
    ASSERT_TRUE(r.outbox->writer_behind(1));
    r.outbox->set_socket_full(true);  // the reader's pace now: nothing for the sender to wait for
    EXPECT_EQ(calls, 1);
    EXPECT_FALSE(r.outbox->writer_behind(1)) << "a full socket is the reader's lag";
    r.outbox->set_socket_full(false);
    ASSERT_TRUE(r.outbox->writer_behind(1));
    r.outbox->request_close({close_code::kNormal, "bye", std::nullopt});
    EXPECT_EQ(calls, 2);
    EXPECT_FALSE(r.outbox->writer_behind(1));
}

TEST(Outbox, ReliableQueueIsAlsoBoundedInBytes) {
    Recorder r;
    r.outbox->push_welcome(frame_of(0));
    const auto big = make_frame(protocol::Bytes(kMaxReliableBytes / 2, 0));
    EXPECT_TRUE(r.outbox->push_reliable(big));
    EXPECT_FALSE(r.outbox->push_reliable(big));
    EXPECT_TRUE(r.outbox->close_requested());
}

TEST(Outbox, WakesOnlyWhenTheWriterIsIdle) {
    Recorder r;
    r.outbox->push_welcome(frame_of(0));
    r.outbox->push_tick(frame_of(1));
    r.outbox->push_tick(frame_of(2));
    EXPECT_EQ(r.wakes, 1);  // one wake while the writer is busy, however many frames arrive
    r.drain();              // the writer found nothing more and went idle
    r.outbox->push_tick(frame_of(3));
    EXPECT_EQ(r.wakes, 2);
}

TEST(Outbox, CloseRequestWinsOverQueuedFramesAndWakesABusyWriter) {
    Recorder r;
    r.outbox->push_welcome(frame_of(0));
    r.outbox->push_tick(frame_of(1));
    r.outbox->request_close({close_code::kGoingAway, "bye", std::nullopt});
    r.outbox->request_close({close_code::kInvalidPayload, "ignored: the first request wins", std::nullopt});
    EXPECT_EQ(r.wakes, 2);
    const auto next = r.outbox->next();
    EXPECT_FALSE(next.frame);
    ASSERT_TRUE(next.close);
    EXPECT_EQ(next.close->code, close_code::kGoingAway);
    EXPECT_EQ(r.outbox->push_tick(frame_of(5)), 0U);
    EXPECT_EQ(r.outbox->queued_ticks(), 0U);
}

TEST(Outbox, SharesOneBufferAcrossConnections) {
    Recorder a, b;
    a.outbox->push_welcome(frame_of(0));
    b.outbox->push_welcome(frame_of(0));
    const Frame shared = frame_of(42);
    a.outbox->push_tick(shared);
    b.outbox->push_tick(shared);
    a.outbox->next();
    b.outbox->next();
    EXPECT_EQ(a.outbox->next().frame.get(), shared.get());
    EXPECT_EQ(b.outbox->next().frame.get(), shared.get());
}

}  // namespace
}  // namespace hschool::net

namespace hschool::net {
namespace {

TEST(Outbox, TheStreamLaneNeverClosesAndIsClearedWholeForAResync) {
    Recorder r;
    r.outbox->open();
    // Far past the reliable bound: a stream lane is the sender's to bound, never a reason to close.
    for (std::size_t i = 0; i < kMaxReliableFrames * 2; ++i) EXPECT_TRUE(r.outbox->push_stream(frame_of(static_cast<std::uint8_t>(i))));
    EXPECT_FALSE(r.outbox->close_requested());
    EXPECT_EQ(r.outbox->queued_stream(), kMaxReliableFrames * 2);
    EXPECT_EQ(r.outbox->clear_stream(), kMaxReliableFrames * 2);
    EXPECT_EQ(r.outbox->queued_stream(), 0u);
    r.outbox->push_stream(frame_of(7));
    r.outbox->push_reliable(frame_of(1));
    EXPECT_EQ(r.drain(), (std::vector<std::uint8_t>{1, 7}));  // reliable first, as for ticks
}

TEST(Outbox, StreamFramesWaitForTheOpenAndGoWhenClosing) {
    Recorder r;
    r.outbox->push_stream(frame_of(3));
    EXPECT_TRUE(r.drain().empty());
    r.outbox->open();
    EXPECT_EQ(r.drain(), (std::vector<std::uint8_t>{3}));
    r.outbox->request_close({close_code::kNormal, "bye", std::nullopt});
    EXPECT_FALSE(r.outbox->push_stream(frame_of(4)));
}

TEST(Outbox, ALaggingReaderGetsControlAndReliableFramesWhileLossyOnesWait) {
    Recorder r;
    r.outbox->push_welcome(frame_of(1));
    r.outbox->push_tick(frame_of(10));
    r.outbox->push_stream(frame_of(20));
    r.outbox->push_control(frame_of(30));
    r.outbox->push_reliable(frame_of(2));
    // The delivery window is shut: Pings, Pongs and reliable frames still go, and the writer learns
    // that lossy frames wait rather than that there is nothing.
    std::vector<std::uint8_t> tags;
    while (true) {
        auto next = r.outbox->next(false);
        if (!next.frame) {
            EXPECT_TRUE(next.held_back);
            break;
        }
        EXPECT_FALSE(next.lossy);
        tags.push_back(next.frame->payload()[0]);
    }
    EXPECT_EQ(tags, (std::vector<std::uint8_t>{30, 1, 2}));
    // Ticks keep arriving meanwhile: the ring still drops the oldest, and each push wakes the idle writer.
    const int wakes = r.wakes;
    std::size_t dropped = 0;
    for (int i = 0; i < static_cast<int>(kTickFrameRing); ++i) dropped += r.outbox->push_tick(frame_of(static_cast<std::uint8_t>(40 + i)));
    EXPECT_EQ(dropped, 1u);
    EXPECT_GT(r.wakes, wakes);
    // The reader caught up: the stream frame, then the newest ticks, all marked lossy.
    auto first = r.outbox->next(true);
    ASSERT_TRUE(first.frame);
    EXPECT_TRUE(first.lossy);
    EXPECT_EQ(first.frame->payload()[0], 20);
    const auto rest = r.drain();
    ASSERT_EQ(rest.size(), kTickFrameRing);
    EXPECT_EQ(rest.front(), 40);
    EXPECT_FALSE(r.outbox->next(false).held_back);  // nothing waits any more
}

TEST(Outbox, AReaderThatWasBehindSkipsToTheNewestTick) {
    Recorder r;
    r.outbox->push_welcome(frame_of(1));
    EXPECT_EQ(r.drain(), (std::vector<std::uint8_t>{1}));
    EXPECT_EQ(r.outbox->keep_newest_tick(), 0u);
    for (std::uint8_t i = 10; i < 20; ++i) r.outbox->push_tick(frame_of(i));
    r.outbox->push_reliable(frame_of(2));
    EXPECT_EQ(r.outbox->keep_newest_tick(), 9u);
    EXPECT_EQ(r.drain(), (std::vector<std::uint8_t>{2, 19}));  // reliable frames are never skipped
}

TEST(Outbox, TheReaderLaggingFlagIsWhatTheSessionSets) {
    Recorder r;
    EXPECT_FALSE(r.outbox->reader_lagging());
    r.outbox->set_reader_lagging(true);
    EXPECT_TRUE(r.outbox->reader_lagging());
    r.outbox->set_reader_lagging(false);
    EXPECT_FALSE(r.outbox->reader_lagging());
}

}  // namespace
}  // namespace hschool::net
