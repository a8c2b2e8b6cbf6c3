// The rules the network applies to peers, without sockets: the inbound token bucket, the
// connection caps, the Origin allow list and the log throttle.
#include <gtest/gtest.h>

#include "net/connection_limiter.hpp"
#include "net/log_throttle.hpp"
#include "net/origin_policy.hpp"
#include "net/token_bucket.hpp"

namespace hschool::net {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

TEST(TokenBucket, BurstThenRefillAtTheRate) {
    const auto t0 = Clock::time_point{} + 1h;
    TokenBucket bucket(10, 20, t0);
    for (int i = 0; i < 20; ++i) EXPECT_TRUE(bucket.take(1, t0)) << i;
    EXPECT_FALSE(bucket.take(1, t0));
    EXPECT_FALSE(bucket.take(1, t0 + 99ms));   // 0.99 of a token
    EXPECT_TRUE(bucket.take(1, t0 + 100ms));   // one token per 100 ms
    EXPECT_FALSE(bucket.take(1, t0 + 100ms));
    EXPECT_EQ(bucket.tokens(t0 + 1h), 20U);     // never above the burst
}

TEST(TokenBucket, ATakeLargerThanWhatIsLeftTakesNothing) {
    const auto t0 = Clock::time_point{} + 1h;
    TokenBucket bucket(100, 100, t0);
    EXPECT_FALSE(bucket.take(101, t0));
    EXPECT_TRUE(bucket.take(100, t0));
}

TEST(TokenBucket, TimeGoingBackwardsRefillsNothing) {
    const auto t0 = Clock::time_point{} + 1h;
    TokenBucket bucket(1000, 1, t0);
    EXPECT_TRUE(bucket.take(1, t0));
    EXPECT_FALSE(bucket.take(1, t0 - 10s));
}

TEST(InboundBudget, ARealArenaClientStaysWithinTheDefaultBudgetForAMinute) {
    const BudgetLimits limits{120, 240, 64 * 1024, 256 * 1024};
    auto t = Clock::time_point{} + 1h;
    InboundBudget budget(limits, t);
    // 30 inputs a second (14 bytes) plus a ping (9 bytes) each second.
    for (int ms = 0; ms < 60'000; ms += 33) ASSERT_TRUE(budget.admit(14, t + std::chrono::milliseconds(ms))) << ms;
    for (int s = 0; s < 60; ++s) ASSERT_TRUE(budget.admit(9, t + std::chrono::seconds(s) + 1ms));
}

TEST(InboundBudget, AFloodIsCutWithinTheBurst) {
    const BudgetLimits limits{120, 240, 64 * 1024, 256 * 1024};
    const auto t = Clock::time_point{} + 1h;
    InboundBudget budget(limits, t);
    int admitted = 0;
    while (budget.admit(8, t) && admitted < 10'000) ++admitted;
    EXPECT_EQ(admitted, 240);
}

TEST(InboundBudget, BytesAreLimitedToo) {
    const BudgetLimits limits{1000, 1000, 1024, 4096};
    const auto t = Clock::time_point{} + 1h;
    InboundBudget budget(limits, t);
    EXPECT_TRUE(budget.admit(4000, t));
    EXPECT_FALSE(budget.admit(200, t));
}

TEST(ConnectionLimiter, TotalCapRefusesTheNextAndASlotGivesItsPlaceBack) {
    ConnectionLimiter limiter(2, 0);
    ConnectionLimiter::Slot a, b, c;
    EXPECT_EQ(limiter.try_admit("1.1.1.1", a), ConnectionLimiter::Admission::Admitted);
    EXPECT_EQ(limiter.try_admit("2.2.2.2", b), ConnectionLimiter::Admission::Admitted);
    EXPECT_EQ(limiter.try_admit("3.3.3.3", c), ConnectionLimiter::Admission::TotalCapReached);
    EXPECT_FALSE(c.held());
    a.release();
    EXPECT_EQ(limiter.total(), 1U);
    EXPECT_EQ(limiter.try_admit("3.3.3.3", c), ConnectionLimiter::Admission::Admitted);
}

TEST(ConnectionLimiter, PerAddressCapLeavesOtherAddressesAlone) {
    ConnectionLimiter limiter(0, 2);
    std::vector<ConnectionLimiter::Slot> slots(4);
    EXPECT_EQ(limiter.try_admit("10.0.0.1", slots[0]), ConnectionLimiter::Admission::Admitted);
    EXPECT_EQ(limiter.try_admit("10.0.0.1", slots[1]), ConnectionLimiter::Admission::Admitted);
    EXPECT_EQ(limiter.try_admit("10.0.0.1", slots[2]), ConnectionLimiter::Admission::AddressCapReached);
    EXPECT_EQ(limiter.try_admit("10.0.0.2", slots[3]), ConnectionLimiter::Admission::Admitted);
    EXPECT_EQ(limiter.from("10.0.0.1"), 2U);
    { ConnectionLimiter::Slot moved = std::move(slots[0]); }  // a moved slot releases once, where it went
    EXPECT_EQ(limiter.from("10.0.0.1"), 1U);
    EXPECT_EQ(limiter.total(), 2U);
    slots.clear();
    EXPECT_EQ(limiter.total(), 0U);
    EXPECT_EQ(limiter.from("10.0.0.2"), 0U);
}

TEST(OriginPolicy, NoOriginSameHostAndListedOriginsPass) {
    const std::vector<std::string> none;
    EXPECT_TRUE(origin_allowed("", "127.0.0.1:8080", none));  // not a browser
    EXPECT_TRUE(origin_allowed("http://127.0.0.1:8080", "127.0.0.1:8080", none));
    EXPECT_TRUE(origin_allowed("HTTPS://Play.Example.org", "play.example.org", none));
    EXPECT_TRUE(origin_allowed("http://example.test", "127.0.0.1:8080", {"http://example.test/"}));
}

TEST(OriginPolicy, OtherOriginsAndTricksAreRefused) {
    const std::vector<std::string> listed{"http://example.test"};
    EXPECT_FALSE(origin_allowed("http://evil.test", "127.0.0.1:8080", listed));
    EXPECT_FALSE(origin_allowed("http://127.0.0.1:9999", "127.0.0.1:8080", listed));    // another port
    EXPECT_FALSE(origin_allowed("http://127.0.0.1:8080.evil.test", "127.0.0.1:8080", listed));
    EXPECT_FALSE(origin_allowed("null", "127.0.0.1:8080", listed));
    EXPECT_FALSE(origin_allowed("file://127.0.0.1:8080", "127.0.0.1:8080", listed));
    EXPECT_FALSE(origin_allowed("http://127.0.0.1:8080", "", listed));                  // no Host to compare
    EXPECT_FALSE(origin_allowed("http://example.test.evil", "127.0.0.1:8080", listed));
}

TEST(LogThrottle, OneLinePerIntervalAndTheSkippedAreCounted) {
    LogThrottle throttle(10s);
    const auto t = Clock::time_point{} + 1h;
    EXPECT_EQ(throttle.allow(t), std::optional<std::uint64_t>(0));
    for (int i = 0; i < 5; ++i) EXPECT_FALSE(throttle.allow(t + std::chrono::seconds(i)));
    EXPECT_EQ(throttle.allow(t + 10s), std::optional<std::uint64_t>(5));
}

}  // namespace
}  // namespace hschool::net
