#pragma once
// The server's log lines. Each is checked against its arguments at compile time (fmt's format_string),
// formatted here and handed as text to spdlog in one translation unit (log.cpp): a file that calls
// spdlog's own templates paid ~4 s of compile for them (issue 38), one that calls these ~0.2 s.
#include <fmt/core.h>

#include <string_view>

namespace hschool::logging {

enum class Level { debug, info, warn, error };

// Whether the default logger writes lines of this level (the line is not even formatted if not).
bool enabled(Level level);
// Writes one formatted line through the default logger (its sink, pattern and flush policy).
void write(Level level, std::string_view line);

template <typename... Args>
void line(Level level, fmt::format_string<Args...> format, Args&&... args) {
    if (!enabled(level)) return;
    write(level, fmt::vformat(format, fmt::make_format_args(args...)));
}

template <typename... Args>
void debug(fmt::format_string<Args...> format, Args&&... args) {
    line<Args...>(Level::debug, format, static_cast<Args&&>(args)...);
}
template <typename... Args>
void info(fmt::format_string<Args...> format, Args&&... args) {
    line<Args...>(Level::info, format, static_cast<Args&&>(args)...);
}
template <typename... Args>
void warn(fmt::format_string<Args...> format, Args&&... args) {
    line<Args...>(Level::warn, format, static_cast<Args&&>(args)...);
}
template <typename... Args>
void error(fmt::format_string<Args...> format, Args&&... args) {
    line<Args...>(Level::error, format, static_cast<Args&&>(args)...);
}

}  // namespace hschool::logging
