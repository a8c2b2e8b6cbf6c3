#pragma once
// ISO-8601 instants for the HTTP API: game dates are UTC, formatted with a trailing Z.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hschool::sim {

// Years a four-digit ISO-8601 year field can hold.
inline constexpr int kMinIsoYear = 0;
inline constexpr int kMaxIsoYear = 9999;
// "YYYY-MM-DDTHH:MM:SS.fffffffff+HH:MM" is the longest form parse_iso8601 accepts.
inline constexpr std::size_t kMaxIso8601Length = 35;

// "YYYY-MM-DDTHH:MM:SSZ" in UTC; milliseconds are floored away (the spec's dates have none).
// Empty when the instant falls outside years 0000–9999.
std::optional<std::string> format_iso8601(std::int64_t ms_since_epoch);

// Strict "YYYY-MM-DDTHH:MM:SS[.f{1,9}](Z|±HH:MM)", converted to UTC ms since the epoch.
// Digits past milliseconds are truncated. Empty for anything else, including month 13, Feb 30
// in a common year, hour 24, second 60, lowercase t/z and a missing zone designator.
std::optional<std::int64_t> parse_iso8601(std::string_view text);

}  // namespace hschool::sim
