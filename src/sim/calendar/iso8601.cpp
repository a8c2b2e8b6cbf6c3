#include "sim/calendar/iso8601.hpp"

#include <chrono>

#include <date/date.h>

namespace hschool::sim {
namespace {

using Millis = std::chrono::milliseconds;
using TimeMs = date::sys_time<Millis>;

constexpr int kMaxHour = 23;
constexpr int kMaxMinute = 59;
constexpr int kMaxSecond = 59;  // leap seconds are not representable in ms since the epoch
constexpr int kMaxOffsetHour = 23;
constexpr std::size_t kMaxFractionDigits = 9;
constexpr std::size_t kMillisecondDigits = 3;
constexpr std::size_t kFormattedLength = 20;  // "YYYY-MM-DDTHH:MM:SSZ"

TimeMs first_formattable() {
    return TimeMs{date::sys_days{date::year{kMinIsoYear} / date::January / 1}};
}

TimeMs last_formattable() {
    return TimeMs{date::sys_days{date::year{kMaxIsoYear} / date::December / 31} + date::days{1}} -
           Millis{1};
}

// A cursor over the input that only ever moves forward and never reads past the end.
class Reader {
public:
    explicit Reader(std::string_view text) : text_(text) {}

    bool at_end() const { return pos_ == text_.size(); }

    bool literal(char expected) {
        if (at_end() || text_[pos_] != expected) return false;
        ++pos_;
        return true;
    }

    // Exactly `count` decimal digits as a number; count is small so the value cannot overflow.
    std::optional<int> digits(std::size_t count) {
        if (text_.size() - pos_ < count) return std::nullopt;
        int value = 0;
        for (std::size_t i = 0; i < count; ++i) {
            const char c = text_[pos_ + i];
            if (c < '0' || c > '9') return std::nullopt;
            value = value * 10 + (c - '0');
        }
        pos_ += count;
        return value;
    }

    // One to kMaxFractionDigits digits, scaled to milliseconds with the rest truncated.
    std::optional<int> fraction_as_ms() {
        int ms = 0;
        std::size_t taken = 0;
        while (!at_end() && text_[pos_] >= '0' && text_[pos_] <= '9') {
            if (taken == kMaxFractionDigits) return std::nullopt;
            if (taken < kMillisecondDigits) ms = ms * 10 + (text_[pos_] - '0');
            ++taken;
            ++pos_;
        }
        if (taken == 0) return std::nullopt;
        for (std::size_t i = taken; i < kMillisecondDigits; ++i) ms *= 10;
        return ms;
    }

private:
    std::string_view text_;
    std::size_t pos_ = 0;
};

// Offset east of UTC in minutes: 0 for Z, otherwise ±HH:MM.
std::optional<int> read_zone_minutes(Reader& reader) {
    if (reader.literal('Z')) return 0;
    int sign = 0;
    if (reader.literal('+')) {
        sign = 1;
    } else if (reader.literal('-')) {
        sign = -1;
    } else {
        return std::nullopt;
    }
    const auto hours = reader.digits(2);
    if (!hours || *hours > kMaxOffsetHour || !reader.literal(':')) return std::nullopt;
    const auto minutes = reader.digits(2);
    if (!minutes || *minutes > kMaxMinute) return std::nullopt;
    return sign * (*hours * 60 + *minutes);
}

}  // namespace

std::optional<std::string> format_iso8601(std::int64_t ms_since_epoch) {
    const TimeMs instant{Millis{ms_since_epoch}};
    if (instant < first_formattable() || instant > last_formattable()) return std::nullopt;

    const auto seconds = date::floor<std::chrono::seconds>(instant);
    const auto day = date::floor<date::days>(seconds);
    const date::year_month_day ymd{day};
    const date::hh_mm_ss<std::chrono::seconds> time{seconds - day};

    // Every field is in range here (the year is checked above), so fixed-width digits suffice.
    std::string out(kFormattedLength, '0');
    const auto put = [&out](std::size_t at, unsigned value, int width) {
        for (int i = width - 1; i >= 0; --i, value /= 10) out[at + static_cast<std::size_t>(i)] = static_cast<char>('0' + value % 10);
    };
    put(0, static_cast<unsigned>(static_cast<int>(ymd.year())), 4);
    out[4] = '-';
    put(5, static_cast<unsigned>(ymd.month()), 2);
    out[7] = '-';
    put(8, static_cast<unsigned>(ymd.day()), 2);
    out[10] = 'T';
    put(11, static_cast<unsigned>(time.hours().count()), 2);
    out[13] = ':';
    put(14, static_cast<unsigned>(time.minutes().count()), 2);
    out[16] = ':';
    put(17, static_cast<unsigned>(time.seconds().count()), 2);
    out[19] = 'Z';
    return out;
}

std::optional<std::int64_t> parse_iso8601(std::string_view text) {
    if (text.size() > kMaxIso8601Length) return std::nullopt;
    Reader reader(text);

    const auto year = reader.digits(4);
    if (!year || !reader.literal('-')) return std::nullopt;
    const auto month = reader.digits(2);
    if (!month || !reader.literal('-')) return std::nullopt;
    const auto day = reader.digits(2);
    if (!day || !reader.literal('T')) return std::nullopt;
    const auto hour = reader.digits(2);
    if (!hour || *hour > kMaxHour || !reader.literal(':')) return std::nullopt;
    const auto minute = reader.digits(2);
    if (!minute || *minute > kMaxMinute || !reader.literal(':')) return std::nullopt;
    const auto second = reader.digits(2);
    if (!second || *second > kMaxSecond) return std::nullopt;

    int fraction_ms = 0;
    if (reader.literal('.')) {
        const auto fraction = reader.fraction_as_ms();
        if (!fraction) return std::nullopt;
        fraction_ms = *fraction;
    }
    const auto zone_minutes = read_zone_minutes(reader);
    if (!zone_minutes || !reader.at_end()) return std::nullopt;

    const date::year_month_day ymd{date::year{*year}, date::month{static_cast<unsigned>(*month)},
                                   date::day{static_cast<unsigned>(*day)}};
    if (!ymd.ok()) return std::nullopt;  // month 13, Feb 30, Feb 29 in a common year, day 0

    const TimeMs local = TimeMs{date::sys_days{ymd}} + std::chrono::hours{*hour} +
                         std::chrono::minutes{*minute} + std::chrono::seconds{*second} + Millis{fraction_ms};
    return (local - std::chrono::minutes{*zone_minutes}).time_since_epoch().count();
}

}  // namespace hschool::sim
