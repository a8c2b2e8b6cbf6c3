// The delivery window (issue 31): ack Pings behind lossy frames, the Pongs that answer them, the
// reader's pace learnt from them, and the window shutting when too much is in flight for that pace
// or the oldest unanswered Ping is older than the lag — but never for a reader that keeps up.
#include <gtest/gtest.h>

#include <deque>
#include <vector>

#include "net/delivery_window.hpp"

namespace hschool::net {
namespace {

using Clock = DeliveryWindow::Clock;
using namespace std::chrono_literals;

const Clock::time_point t0 = Clock::time_point{} + 1000s;

TEST(DeliveryWindow, APingGoesBehindTheFirstLossyFramesThenAtMostOnceASecond) {
    DeliveryWindow window(3s);
    EXPECT_FALSE(window.wrote(0, t0));  // no frame, no Ping
    const auto first = window.wrote(1, t0);
    ASSERT_TRUE(first);
    EXPECT_EQ(*first, (protocol::Bytes{'h', 'a', 1, 0, 0, 0}));
    EXPECT_FALSE(window.wrote(1, t0 + 999ms));
    const auto second = window.wrote(1, t0 + 1s);
    ASSERT_TRUE(second);
    EXPECT_EQ(*second, (protocol::Bytes{'h', 'a', 2, 0, 0, 0}));
    EXPECT_EQ(window.pings_in_flight(), 2u);
    EXPECT_EQ(window.in_flight(), 3u);
}

TEST(DeliveryWindow, ShutsWhileTheOldestUnansweredPingIsOlderThanTheLagAndOpensWhenAnswered) {
    DeliveryWindow window(3s);
    EXPECT_EQ(window.room(t0), kFramesInFlightUntilPaced);  // its pace is not known yet
    const auto ping = *window.wrote(1, t0);
    EXPECT_TRUE(window.open(t0 + 3s));
    EXPECT_FALSE(window.open(t0 + 3001ms));
    EXPECT_EQ(window.lag(t0 + 5s), 5s);
    EXPECT_TRUE(window.on_pong(ping, t0 + 5s));
    EXPECT_TRUE(window.open(t0 + 5s));
    EXPECT_EQ(window.lag(t0 + 5s), 0s);
    EXPECT_EQ(window.in_flight(), 0u);
}

TEST(DeliveryWindow, AReaderThatKeepsUpIsNeverHeldBack) {
    DeliveryWindow window(3s);
    // 20 frames a second, each Ping answered a millisecond after it went.
    std::optional<protocol::Bytes> pending;
    Clock::time_point pending_at{};
    for (int frame = 0; frame < 20 * 60; ++frame) {
        const auto now = t0 + frame * 50ms;
        if (pending && now >= pending_at) {
            ASSERT_TRUE(window.on_pong(*pending, now));
            pending.reset();
        }
        ASSERT_GT(window.room(now), 0u) << "frame " << frame;
        if (auto ping = window.wrote(1, now)) {
            pending = ping;
            pending_at = now + 1ms;
        }
    }
    ASSERT_TRUE(window.pace());
    EXPECT_NEAR(*window.pace(), 20.0, 2.0);
}

// A page that reads five frames a second of a twenty-frame stream, answering each Ping as it reaches it.
struct SlowReader {
    std::deque<std::pair<std::size_t, protocol::Bytes>> pings;  // (frames before it, payload), in stream order
    std::size_t frames_read = 0, frames_sent = 0;
    void read_until(Clock::time_point now, Clock::time_point start, DeliveryWindow& window) {
        const auto can_read = static_cast<std::size_t>(std::chrono::duration<double>(now - start).count() * 5.0);
        frames_read = std::min(std::max(frames_read, can_read), frames_sent);
        while (!pings.empty() && pings.front().first <= frames_read) {
            window.on_pong(pings.front().second, now);
            pings.pop_front();
        }
    }
};

TEST(DeliveryWindow, ASlowReaderHasAboutTwoSecondsOfItsOwnPaceInFlightNotTheWholeLag) {
    DeliveryWindow window(3s);
    SlowReader reader;
    std::size_t most_in_flight_late = 0;
    int held = 0;
    for (int frame = 0; frame < 20 * 60; ++frame) {
        const auto now = t0 + frame * 50ms;
        reader.read_until(now, t0, window);
        if (window.room(now) == 0) {
            ++held;  // the outbox keeps it (the ring its newest): the reader skips it
            continue;
        }
        ++reader.frames_sent;
        if (auto ping = window.wrote(1, now)) reader.pings.emplace_back(reader.frames_sent, *ping);
        if (frame > 20 * 10) most_in_flight_late = std::max(most_in_flight_late, window.in_flight());
    }
    ASSERT_TRUE(window.pace());
    EXPECT_NEAR(*window.pace(), 5.0, 1.0);
    // What is in flight is read within about two seconds (ten frames at five a second), plus one batch.
    EXPECT_LE(most_in_flight_late, 12u);
    EXPECT_GT(held, 20 * 30) << "three quarters of the stream should have been skipped";
    // And the stream never stalled: it got about its pace.
    EXPECT_NEAR(static_cast<double>(reader.frames_sent) / 60.0, 5.0, 1.0);
}

TEST(DeliveryWindow, AFrameThatFillsTheRoomGetsItsPingAtOnce) {
    DeliveryWindow window(3s);
    SlowReader reader;
    // Learn a slow pace first.
    for (int frame = 0; frame < 20 * 10; ++frame) {
        const auto now = t0 + frame * 50ms;
        reader.read_until(now, t0, window);
        if (window.room(now) == 0) continue;
        ++reader.frames_sent;
        if (auto ping = window.wrote(1, now)) reader.pings.emplace_back(reader.frames_sent, *ping);
    }
    ASSERT_TRUE(window.pace());
    // Whenever the room is used up, the last frame written has a Ping behind it, so the window can open again.
    ASSERT_EQ(window.room(t0 + 10s), 0u);
    ASSERT_FALSE(reader.pings.empty());
    EXPECT_EQ(reader.pings.back().first, reader.frames_sent);
}

TEST(DeliveryWindow, UntilItsPaceIsKnownAReaderMayHaveAboutASecondAndAHalfInFlight) {
    DeliveryWindow window(3s);
    std::size_t sent = 0;
    for (int frame = 0; frame < 100; ++frame) {
        const auto now = t0 + frame * 50ms;
        if (window.room(now) == 0) continue;
        ++sent;
        (void)window.wrote(1, now);
    }
    EXPECT_EQ(sent, kFramesInFlightUntilPaced);  // nothing answered: nothing more went
}

TEST(DeliveryWindow, APongForALaterPingAnswersTheEarlierOnesButNotLaterOnes) {
    DeliveryWindow window(3s);
    const auto p1 = *window.wrote(2, t0);
    const auto p2 = *window.wrote(3, t0 + 1s);
    const auto p3 = *window.wrote(4, t0 + 2s);
    EXPECT_TRUE(window.on_pong(p2, t0 + 4500ms));
    EXPECT_EQ(window.pings_in_flight(), 1u);
    EXPECT_EQ(window.in_flight(), 4u);           // the frames before p3
    EXPECT_EQ(window.lag(t0 + 4500ms), 2500ms);  // p3 is the oldest left
    EXPECT_FALSE(window.on_pong(p1, t0 + 4600ms));  // already answered
    EXPECT_TRUE(window.on_pong(p3, t0 + 4700ms));
    EXPECT_EQ(window.pings_in_flight(), 0u);
    EXPECT_EQ(window.in_flight(), 0u);
}

TEST(DeliveryWindow, OtherPongsAndForgedSequencesAnswerNothing) {
    DeliveryWindow window(3s);
    (void)window.wrote(1, t0);
    EXPECT_FALSE(window.on_pong({}, t0 + 1s));                                                 // our liveness Ping's Pong
    EXPECT_FALSE(window.on_pong(protocol::Bytes{'h', 'a', 1, 0, 0}, t0 + 1s));                 // short
    EXPECT_FALSE(window.on_pong(protocol::Bytes{'x', 'a', 1, 0, 0, 0}, t0 + 1s));              // not ours
    EXPECT_FALSE(window.on_pong(protocol::Bytes{'h', 'a', 9, 0, 0, 0}, t0 + 1s));              // never sent
    EXPECT_FALSE(window.on_pong(protocol::Bytes{'h', 'a', 0xFF, 0xFF, 0xFF, 0xFF}, t0 + 1s));  // a peer claiming it all
    EXPECT_EQ(window.pings_in_flight(), 1u);
    EXPECT_FALSE(window.open(t0 + 4s));
}

TEST(DeliveryWindow, FramesLeftBehindTheLastPingGetOneWhenTheWindowShuts) {
    DeliveryWindow window(3s);
    const auto first = window.wrote(1, t0);
    ASSERT_TRUE(first);
    EXPECT_FALSE(window.wrote(1, t0 + 500ms));  // within the second: no Ping behind this one
    EXPECT_FALSE(window.cover(t0 + 1s));        // open: the next frames will carry one
    // The reader is slow: the window shuts with one frame no Ping covers, and none will go to carry one.
    ASSERT_FALSE(window.open(t0 + 3100ms));
    const auto cover = window.cover(t0 + 3100ms);
    ASSERT_TRUE(cover);
    EXPECT_FALSE(window.cover(t0 + 3200ms));  // once
    EXPECT_TRUE(window.on_pong(*first, t0 + 3300ms));
    EXPECT_EQ(window.in_flight(), 1u);
    EXPECT_TRUE(window.on_pong(*cover, t0 + 3400ms));
    EXPECT_EQ(window.in_flight(), 0u);
    EXPECT_TRUE(window.open(t0 + 3400ms));
}

TEST(DeliveryWindow, AShutWindowOfASlowReaderAlwaysHasAPingThatCanOpenIt) {
    DeliveryWindow window(3s);
    SlowReader reader;
    for (int frame = 0; frame < 20 * 120; ++frame) {
        const auto now = t0 + frame * 50ms;
        reader.read_until(now, t0, window);
        if (window.room(now) == 0) {
            if (auto ping = window.cover(now)) reader.pings.emplace_back(reader.frames_sent, *ping);
            // Shut: some Ping behind the last frame written is on its way.
            ASSERT_FALSE(reader.pings.empty()) << "frame " << frame;
            ASSERT_EQ(reader.pings.back().first, reader.frames_sent) << "frame " << frame;
            continue;
        }
        ++reader.frames_sent;
        if (auto ping = window.wrote(1, now)) reader.pings.emplace_back(reader.frames_sent, *ping);
    }
    EXPECT_GT(reader.frames_sent, 20u * 120 / 8);  // it kept getting frames for the whole two minutes
}

TEST(DeliveryWindow, AReaderThatNeverAnswersGetsAtMostABoundedNumberOfPings) {
    DeliveryWindow window(100s);
    int pings = 0;
    for (int s = 0; s < 100; ++s) {
        const auto now = t0 + std::chrono::seconds(s);
        if (window.room(now) == 0) {
            pings += window.cover(now).has_value();
            continue;
        }
        pings += window.wrote(1, now).has_value();
    }
    // Once a second until the bound, then the frame that fills the room once: nothing more goes.
    EXPECT_LE(pings, static_cast<int>(kMaxAckPingsInFlight) + 1);
}

TEST(DeliveryWindow, AZeroLagTurnsItOff) {
    DeliveryWindow window(0s);
    EXPECT_FALSE(window.wrote(5, t0));
    EXPECT_EQ(window.room(t0 + 1000s), DeliveryWindow::kUnlimited);
}

}  // namespace
}  // namespace hschool::net
