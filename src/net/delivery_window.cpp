#include "net/delivery_window.hpp"

#include <algorithm>
#include <cmath>

namespace hschool::net {
namespace {

constexpr std::uint8_t kTag0 = 'h', kTag1 = 'a';

}  // namespace

std::optional<double> DeliveryWindow::pace() const {
    if (reads_.size() < 2) return std::nullopt;
    const auto span = reads_.back().at - reads_.front().at;
    if (span < kMinPaceSpan) return std::nullopt;
    return static_cast<double>(reads_.back().read - reads_.front().read) / std::chrono::duration<double>(span).count();
}

std::size_t DeliveryWindow::budget() const {
    const auto measured = pace();
    if (!measured) return kFramesInFlightUntilPaced;
    const double frames = std::ceil(*measured * std::chrono::duration<double>(kReadAhead).count());
    return std::max(kMinFramesInFlight, static_cast<std::size_t>(frames));
}

std::size_t DeliveryWindow::room(Clock::time_point now) const {
    if (max_lag_ <= Clock::duration::zero()) return kUnlimited;
    if (lag(now) > max_lag_) return 0;
    const std::size_t allowed = budget();
    return in_flight() >= allowed ? 0 : allowed - in_flight();
}

std::optional<protocol::Bytes> DeliveryWindow::wrote(std::size_t frames, Clock::time_point now) {
    written_ += frames;
    if (max_lag_ <= Clock::duration::zero() || written_ == written_at_ping_) return std::nullopt;
    // Frames that fill the room get a Ping behind them at once, however many are unanswered: only
    // its Pong can open the window again, and no more frames (so no more Pings) go until it does.
    if (room(now) == 0) return ping(now);
    const bool second_passed = last_ping_ == Clock::time_point{} || now - last_ping_ >= kAckPingInterval;
    if (!second_passed || sent_.size() >= kMaxAckPingsInFlight) return std::nullopt;
    return ping(now);
}

std::optional<protocol::Bytes> DeliveryWindow::cover(Clock::time_point now) {
    if (max_lag_ <= Clock::duration::zero() || written_ == written_at_ping_ || room(now) > 0) return std::nullopt;
    return ping(now);
}

protocol::Bytes DeliveryWindow::ping(Clock::time_point now) {
    const std::uint32_t sequence = next_sequence_++;
    sent_.push_back({sequence, now, written_});
    last_ping_ = now;
    written_at_ping_ = written_;
    protocol::Bytes payload{kTag0, kTag1};
    for (int i = 0; i < 4; ++i) payload.push_back(static_cast<std::uint8_t>(sequence >> (8 * i)));
    return payload;
}

bool DeliveryWindow::on_pong(protocol::ByteView payload, Clock::time_point now) {
    if (payload.size() != kAckPingPayloadBytes || payload[0] != kTag0 || payload[1] != kTag1) return false;
    std::uint32_t sequence = 0;
    for (int i = 0; i < 4; ++i) sequence |= std::uint32_t{payload[static_cast<std::size_t>(2 + i)]} << (8 * i);
    bool answered = false;
    // Pongs come in order; one for a later Ping answers the earlier ones too (RFC 6455 lets a
    // client answer only the latest of several Pings).
    while (!sent_.empty() && sent_.front().sequence <= sequence && sequence < next_sequence_) {
        read_ = sent_.front().written;
        sent_.pop_front();
        answered = true;
    }
    if (!answered) return false;
    reads_.push_back({now, read_});
    // Keep the last kPaceSpan of Pongs and the one before it, so the span measured is about kPaceSpan.
    while (reads_.size() > 2 && now - reads_[1].at >= kPaceSpan) reads_.pop_front();
    return true;
}

DeliveryWindow::Clock::duration DeliveryWindow::lag(Clock::time_point now) const {
    return sent_.empty() ? Clock::duration::zero() : now - sent_.front().at;
}

}  // namespace hschool::net
