#include "util/log.hpp"

#include <spdlog/spdlog.h>

namespace hschool::logging {

namespace {
spdlog::level::level_enum to_spdlog(Level level) {
    switch (level) {
        case Level::debug: return spdlog::level::debug;
        case Level::info: return spdlog::level::info;
        case Level::warn: return spdlog::level::warn;
        case Level::error: return spdlog::level::err;
    }
    return spdlog::level::err;
}
}  // namespace

bool enabled(Level level) { return spdlog::default_logger_raw()->should_log(to_spdlog(level)); }

void write(Level level, std::string_view line) {
    spdlog::default_logger_raw()->log(to_spdlog(level), spdlog::string_view_t(line.data(), line.size()));
}

}  // namespace hschool::logging
