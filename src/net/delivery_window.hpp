#pragma once
// How far behind a WebSocket's reader is, and how much more it may be sent (issue 31). A socket's
// send buffer, the network and the reader's receive buffer can hold many seconds of frames that the
// outbox no longer sees: a slow reader was never skipped forward, it read ever older frames, or its
// socket took nothing for the write-stall time and it was dropped. The writer puts a WebSocket Ping
// behind its lossy frames (ticks, spectator streams, v5 deltas); every client answers Pings in order
// as it reads, so each Pong says how many of those frames the reader has read. From the Pongs the
// window learns the reader's pace and lets at most kReadAhead of it be in flight, and never more
// than what was written `max_lag` ago (before its pace is known, kFramesInFlightUntilPaced): beyond
// that the frames wait in the outbox, which keeps only the newest (the tick ring) or resyncs the
// viewer (the spectator feeds). A reader that keeps up never meets these bounds. Pure: time is passed in.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <optional>

#include "protocol/bytes.hpp"

namespace hschool::net {

inline constexpr auto kAckPingInterval = std::chrono::seconds(1);     // a Ping behind lossy frames at least this often
inline constexpr std::size_t kMaxAckPingsInFlight = 8;               // a reader this far behind gets no more until it answers
inline constexpr std::size_t kAckPingPayloadBytes = 6;               // 'h' 'a' then the u32 sequence, little-endian
inline constexpr auto kReadAhead = std::chrono::seconds(2);           // frames in flight: this much of the reader's pace
inline constexpr auto kPaceSpan = std::chrono::seconds(4);            // the reader's pace is measured over about this long
inline constexpr auto kMinPaceSpan = std::chrono::milliseconds(500);  // a shorter span says nothing yet
inline constexpr std::size_t kMinFramesInFlight = 4;                 // however slow the reader, it may always have these
// Until its pace is known: about a second and a half of a 20–24 Hz stream, so a reader that turns
// out slow has not been sent more than it can read in a few seconds.
inline constexpr std::size_t kFramesInFlightUntilPaced = 32;

class DeliveryWindow {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr std::size_t kUnlimited = std::numeric_limits<std::size_t>::max();

    // `max_lag` 0 turns the window off: it never shuts and sends no Pings.
    explicit DeliveryWindow(Clock::duration max_lag) : max_lag_(max_lag) {}

    // How many more lossy frames may go now (0 when the window is shut; kUnlimited when it is off).
    std::size_t room(Clock::time_point now) const;
    bool open(Clock::time_point now) const { return room(now) > 0; }
    // `frames` lossy frames were just taken for writing at `now`: the payload of the Ping to write
    // behind them, when one is due (a second since the last, or they fill the room).
    std::optional<protocol::Bytes> wrote(std::size_t frames, Clock::time_point now);
    // The window is shut and frames went since the last Ping: the payload of a Ping to write now,
    // whose Pong is what can open the window again. Once per shut window (no frames go meanwhile).
    std::optional<protocol::Bytes> cover(Clock::time_point now);
    // A Pong arrived: true when it answers one of our Pings (the reader has read up to it).
    bool on_pong(protocol::ByteView payload, Clock::time_point now);

    // How long ago the oldest unanswered Ping was written (zero when none is).
    Clock::duration lag(Clock::time_point now) const;
    // Lossy frames written that the reader has not yet said it read.
    std::size_t in_flight() const { return written_ - read_; }
    // Frames the reader has read per second lately; nothing until its Pongs span kMinPaceSpan.
    std::optional<double> pace() const;
    std::size_t pings_in_flight() const { return sent_.size(); }

private:
    struct Sent {
        std::uint32_t sequence = 0;
        Clock::time_point at{};
        std::uint64_t written = 0;  // lossy frames written before it
    };
    struct Read {
        Clock::time_point at{};
        std::uint64_t read = 0;
    };
    std::size_t budget() const;
    protocol::Bytes ping(Clock::time_point now);

    Clock::duration max_lag_;
    std::deque<Sent> sent_;  // oldest first
    std::deque<Read> reads_;  // the Pongs of the last kPaceSpan and one before, oldest first
    std::uint32_t next_sequence_ = 1;
    Clock::time_point last_ping_{};
    std::uint64_t written_ = 0;          // lossy frames written so far
    std::uint64_t read_ = 0;             // of which the reader has said it read
    std::uint64_t written_at_ping_ = 0;  // written_ when the last Ping went
};

}  // namespace hschool::net
