// What the server knows of its database: the latest write's outcome, counted and logged sparingly.
#include "server/schools/store_health.hpp"

#include <gtest/gtest.h>

#include "server/metrics.hpp"

namespace hschool::server {
namespace {

const store::StoreError kBusy{store::StoreErrorKind::Busy, "database is locked"};

std::string errors_total(const Metrics& metrics) {
    const auto text = metrics.render();
    const auto at = text.find("\nhschool_store_errors_total ");
    if (at == std::string::npos) return "missing";
    const auto start = at + std::string("\nhschool_store_errors_total ").size();
    return text.substr(start, text.find('\n', start) - start);
}

TEST(StoreHealth, AFailureIsReportedUntilAWriteSucceedsAgain) {
    Metrics metrics;
    StoreHealth health(metrics);
    EXPECT_FALSE(health.failure().has_value());
    health.record("create", std::nullopt);
    EXPECT_FALSE(health.failure().has_value());

    health.record("clock write", kBusy);
    ASSERT_TRUE(health.failure().has_value());
    EXPECT_NE(health.failure()->find("clock write"), std::string::npos) << *health.failure();
    EXPECT_NE(health.failure()->find("database is locked"), std::string::npos) << *health.failure();

    health.record("clock write", std::nullopt);
    EXPECT_FALSE(health.failure().has_value());
}

TEST(StoreHealth, TheLatestFailureGivesTheReason) {
    Metrics metrics;
    StoreHealth health(metrics);
    health.record("clock write", kBusy);
    health.record("delete", store::StoreError{store::StoreErrorKind::Io, "disk I/O error"});
    ASSERT_TRUE(health.failure().has_value());
    EXPECT_NE(health.failure()->find("delete failed (io): disk I/O error"), std::string::npos) << *health.failure();
}

TEST(StoreHealth, EveryFailureIsCountedButLoggedAtMostOncePerInterval) {
    Metrics metrics;
    StoreHealth health(metrics);
    const auto start = StoreHealth::Clock::time_point{} + std::chrono::hours(1);
    constexpr int kAttempts = 100;  // a retry every clock interval for a while
    int lines = 0;
    for (int i = 0; i < kAttempts; ++i) lines += health.record("clock write", kBusy, start + std::chrono::milliseconds(250 * i / 10)) ? 1 : 0;
    EXPECT_EQ(lines, 1);  // all within one interval
    EXPECT_EQ(errors_total(metrics), "100");
    EXPECT_TRUE(health.record("clock write", kBusy, start + kStoreErrorLogInterval));  // still failing, said again
    EXPECT_EQ(errors_total(metrics), "101");
}

TEST(StoreHealth, RecoveryIsLoggedOnceAndOnlyAfterALoggedFailure) {
    Metrics metrics;
    StoreHealth health(metrics);
    const auto start = StoreHealth::Clock::time_point{} + std::chrono::hours(1);
    EXPECT_FALSE(health.record("clock write", std::nullopt, start));  // nothing to recover from
    EXPECT_TRUE(health.record("clock write", kBusy, start));
    EXPECT_TRUE(health.record("clock write", std::nullopt, start));   // "recovered"
    EXPECT_FALSE(health.record("clock write", std::nullopt, start));  // once
    // A flapping store: the next streak starts within the interval, so neither its start nor its end is logged.
    EXPECT_FALSE(health.record("clock write", kBusy, start + std::chrono::seconds(1)));
    EXPECT_TRUE(health.failure().has_value());
    EXPECT_FALSE(health.record("clock write", std::nullopt, start + std::chrono::seconds(2)));
    EXPECT_FALSE(health.failure().has_value());
    EXPECT_EQ(errors_total(metrics), "2");
}

TEST(StoreHealth, ASuccessWithNoFailureCountsNothing) {
    Metrics metrics;
    StoreHealth health(metrics);
    health.record("create", std::nullopt);
    EXPECT_EQ(errors_total(metrics), "0");
}

}  // namespace
}  // namespace hschool::server
