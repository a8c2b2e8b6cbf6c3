#include "sim/calendar/iso8601.hpp"

#include <cstdint>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "sim/calendar/calendar.hpp"

namespace hschool::sim {
namespace {

constexpr std::int64_t k1900Ms = -2208988800000;          // 1900-01-01T00:00:00Z
constexpr std::int64_t kLast2999SecondMs = 32503679999000;  // 2999-12-31T23:59:59Z
constexpr std::int64_t kLeapDay2012Ms = 1330473600000;     // 2012-02-29T00:00:00Z

TEST(Iso8601, FormatsTheDefaultStartDate) {
    EXPECT_EQ(format_iso8601(kDefaultStartDateMs), "2012-04-03T06:00:00Z");
}

TEST(Iso8601, FormatsTheEpochAndNegativeTimes) {
    EXPECT_EQ(format_iso8601(0), "1970-01-01T00:00:00Z");
    EXPECT_EQ(format_iso8601(-1000), "1969-12-31T23:59:59Z");
    EXPECT_EQ(format_iso8601(k1900Ms), "1900-01-01T00:00:00Z");
}

TEST(Iso8601, FormatFloorsMillisecondsAway) {
    EXPECT_EQ(format_iso8601(kDefaultStartDateMs + 999), "2012-04-03T06:00:00Z");
    EXPECT_EQ(format_iso8601(-1), "1969-12-31T23:59:59Z");  // floor, not truncation toward zero
}

TEST(Iso8601, RoundTripsTheSpecRangeEnds) {
    for (const std::int64_t ms : {k1900Ms, kLast2999SecondMs, kLeapDay2012Ms, kDefaultStartDateMs, std::int64_t{0}}) {
        const auto text = format_iso8601(ms);
        ASSERT_TRUE(text.has_value()) << ms;
        EXPECT_EQ(parse_iso8601(*text), ms) << *text;
    }
    EXPECT_EQ(format_iso8601(kLast2999SecondMs), "2999-12-31T23:59:59Z");
    EXPECT_EQ(parse_iso8601("1900-01-01T00:00:00Z"), k1900Ms);
    EXPECT_EQ(parse_iso8601("2999-12-31T23:59:59Z"), kLast2999SecondMs);
}

TEST(Iso8601, LeapDays) {
    EXPECT_EQ(parse_iso8601("2012-02-29T00:00:00Z"), kLeapDay2012Ms);
    EXPECT_EQ(format_iso8601(kLeapDay2012Ms), "2012-02-29T00:00:00Z");
    EXPECT_TRUE(parse_iso8601("2000-02-29T00:00:00Z").has_value());   // divisible by 400
    EXPECT_FALSE(parse_iso8601("1900-02-29T00:00:00Z").has_value());  // divisible by 100 only
    EXPECT_FALSE(parse_iso8601("2013-02-29T00:00:00Z").has_value());
}

TEST(Iso8601, FormatsOutsideFourDigitYearsAsEmpty) {
    EXPECT_FALSE(format_iso8601(std::numeric_limits<std::int64_t>::min()).has_value());
    EXPECT_FALSE(format_iso8601(std::numeric_limits<std::int64_t>::max()).has_value());
    EXPECT_EQ(format_iso8601(*parse_iso8601("9999-12-31T23:59:59.999Z")), "9999-12-31T23:59:59Z");
    EXPECT_EQ(format_iso8601(*parse_iso8601("0000-01-01T00:00:00Z")), "0000-01-01T00:00:00Z");
    EXPECT_FALSE(format_iso8601(*parse_iso8601("9999-12-31T23:59:59.999Z") + 1).has_value());
    EXPECT_FALSE(format_iso8601(*parse_iso8601("0000-01-01T00:00:00Z") - 1).has_value());
}

TEST(Iso8601, ParsesFractionalSeconds) {
    EXPECT_EQ(parse_iso8601("2012-04-03T06:00:00.5Z"), kDefaultStartDateMs + 500);
    EXPECT_EQ(parse_iso8601("2012-04-03T06:00:00.123Z"), kDefaultStartDateMs + 123);
    EXPECT_EQ(parse_iso8601("2012-04-03T06:00:00.123999999Z"), kDefaultStartDateMs + 123);
    EXPECT_EQ(parse_iso8601("1969-12-31T23:59:59.250Z"), -750);
}

TEST(Iso8601, ConvertsOffsetsToUtc) {
    EXPECT_EQ(parse_iso8601("2012-04-03T06:00:00+00:00"), kDefaultStartDateMs);
    EXPECT_EQ(parse_iso8601("2012-04-03T06:00:00-00:00"), kDefaultStartDateMs);
    EXPECT_EQ(parse_iso8601("2012-04-03T09:00:00+03:00"), kDefaultStartDateMs);
    EXPECT_EQ(parse_iso8601("2012-04-02T23:30:00-06:30"), kDefaultStartDateMs);
    EXPECT_EQ(parse_iso8601("2012-04-03T11:45:00.250+05:45"), kDefaultStartDateMs + 250);
}

TEST(Iso8601, RejectsMalformedText) {
    const char* const rejected[] = {
        "",
        "garbage",
        "2012-04-03",
        "2012-04-03T06:00:00",          // missing zone
        "2012-04-03T06:00Z",            // missing seconds
        "2012-04-03 06:00:00Z",         // space instead of T
        "2012-04-03t06:00:00Z",         // lowercase t
        "2012-04-03T06:00:00z",         // lowercase z
        "2012-04-03T06:00:00ZZ",        // trailing bytes
        "2012-04-03T06:00:00Z ",
        " 2012-04-03T06:00:00Z",
        "2012-4-03T06:00:00Z",          // one-digit month
        "12012-04-03T06:00:00Z",        // five-digit year
        "-2012-04-03T06:00:00Z",
        "+2012-04-03T06:00:00Z",
        "2012-04-03T06:00:00.Z",        // empty fraction
        "2012-04-03T06:00:00.1234567890Z",  // ten fraction digits
        "2012-04-03T06:00:00+03",       // offset without minutes
        "2012-04-03T06:00:00+0300",     // offset without colon
        "2012-04-03T06:00:00+24:00",
        "2012-04-03T06:00:00+03:60",
        "2012-04-03T06:00:00+-3:00",
        "2012-04-03T06:00:00\0Z",
        "２０１２-04-03T06:00:00Z",      // full-width digits
    };
    for (const char* text : rejected) EXPECT_FALSE(parse_iso8601(text).has_value()) << text;
    EXPECT_FALSE(parse_iso8601(std::string("2012-04-03T06:00:00\0Z", 21)).has_value());
}

TEST(Iso8601, RejectsOutOfRangeFields) {
    const char* const rejected[] = {
        "2012-13-03T06:00:00Z",  // month 13
        "2012-00-03T06:00:00Z",  // month 0
        "2013-02-30T06:00:00Z",  // Feb 30
        "2012-02-30T06:00:00Z",  // Feb 30 even in a leap year
        "2012-04-31T06:00:00Z",  // April has 30 days
        "2012-04-00T06:00:00Z",  // day 0
        "2012-04-03T24:00:00Z",  // hour 24
        "2012-04-03T06:60:00Z",
        "2012-04-03T06:00:60Z",  // leap seconds are not instants in ms since the epoch
    };
    for (const char* text : rejected) EXPECT_FALSE(parse_iso8601(text).has_value()) << text;
}

TEST(Iso8601, RejectsHugeNumbersAndLongInput) {
    EXPECT_FALSE(parse_iso8601("99999999999999999999-01-01T00:00:00Z").has_value());
    EXPECT_FALSE(parse_iso8601("2012-04-03T06:00:00.000000000000000000000000001Z").has_value());
    EXPECT_FALSE(parse_iso8601("2012-04-03T06:00:00+99999999999999999999:00").has_value());
    EXPECT_FALSE(parse_iso8601(std::string(1 << 20, '9')).has_value());
    EXPECT_TRUE(parse_iso8601("2012-04-03T06:00:00.123456789+05:45").has_value());  // the longest accepted form
}

}  // namespace
}  // namespace hschool::sim
