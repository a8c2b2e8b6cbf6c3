#pragma once
// Rate limits for what a peer may send: token buckets refilled by elapsed time, which is passed
// in so the rules are tested without a clock.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>

namespace hschool::net {

class TokenBucket {
public:
    using Clock = std::chrono::steady_clock;

    // rate_per_second tokens arrive each second, up to burst; the bucket starts full.
    TokenBucket(std::uint64_t rate_per_second, std::uint64_t burst, Clock::time_point now)
        : rate_(rate_per_second), burst_scaled_(burst * kScale), tokens_scaled_(burst * kScale), last_(now) {}

    // Takes amount tokens if there are that many; false (and nothing taken) otherwise.
    bool take(std::uint64_t amount, Clock::time_point now) {
        refill(now);
        const std::uint64_t wanted = amount * kScale;
        if (wanted > tokens_scaled_) return false;
        tokens_scaled_ -= wanted;
        return true;
    }

    std::uint64_t tokens(Clock::time_point now) {
        refill(now);
        return tokens_scaled_ / kScale;
    }

private:
    // Tokens are kept in millionths so slow rates refill smoothly in integer arithmetic.
    static constexpr std::uint64_t kScale = 1'000'000;

    void refill(Clock::time_point now) {
        if (now <= last_) return;
        const auto elapsed_us = static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(now - last_).count());
        last_ = now;
        // rate × µs is tokens in millionths; capped first so a long idle time cannot overflow.
        const std::uint64_t capped_us = std::min<std::uint64_t>(elapsed_us, kMaxRefillMicros);
        tokens_scaled_ = std::min(burst_scaled_, tokens_scaled_ + rate_ * capped_us);
    }

    static constexpr std::uint64_t kMaxRefillMicros = 3'600'000'000ull;  // an hour refills any bucket

    std::uint64_t rate_;
    std::uint64_t burst_scaled_;
    std::uint64_t tokens_scaled_;
    Clock::time_point last_;
};

struct BudgetLimits {
    std::uint64_t messages_per_second = 0;
    std::uint64_t message_burst = 0;
    std::uint64_t bytes_per_second = 0;
    std::uint64_t byte_burst = 0;
    bool operator==(const BudgetLimits&) const = default;
};

// What one WebSocket may send: every frame (data or control) costs one message and its payload bytes.
class InboundBudget {
public:
    InboundBudget(const BudgetLimits& limits, TokenBucket::Clock::time_point now)
        : messages_(limits.messages_per_second, limits.message_burst, now), bytes_(limits.bytes_per_second, limits.byte_burst, now) {}

    // False once the peer sends faster than the limits allow.
    bool admit(std::size_t payload_bytes, TokenBucket::Clock::time_point now) {
        return admit_message(now) && admit_bytes(payload_bytes, now);
    }
    bool admit_message(TokenBucket::Clock::time_point now) { return messages_.take(1, now); }
    // The session charges what it reads, headers included, before parsing it: a flood costs no parsing.
    bool admit_bytes(std::size_t bytes, TokenBucket::Clock::time_point now) { return bytes_.take(bytes, now); }

private:
    TokenBucket messages_;
    TokenBucket bytes_;
};

}  // namespace hschool::net
