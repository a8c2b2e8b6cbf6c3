// hschool-server: parses the command line, sets up logging, runs the server.
#include <malloc.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

#include "server/options.hpp"
#include "server/server.hpp"

namespace {

// glibc gives up to 8 malloc arenas per core; with a thread per match and per replay viewer each
// arena keeps its own freed pages, so RSS grew to ~2x the heap (issue 19: 521 → 338 MiB at peak with
// one arena per core). An operator's MALLOC_ARENA_MAX still wins.
constexpr int kMinMallocArenas = 2;

void limit_malloc_arenas() {
    if (std::getenv("MALLOC_ARENA_MAX") != nullptr) return;
    const int cores = static_cast<int>(std::thread::hardware_concurrency());
    mallopt(M_ARENA_MAX, std::max(kMinMallocArenas, cores));
}

}  // namespace

int main(int argc, char** argv) {
    limit_malloc_arenas();
    auto parsed = hschool::server::parse_options(argc, argv);
    if (const int* exit_code = std::get_if<int>(&parsed)) return *exit_code;
    const auto& options = std::get<hschool::server::ServerOptions>(parsed);

    // One line per event, key=value pairs, UTC timestamps: easy for people and for log shippers.
    auto logger = spdlog::stdout_logger_mt("hschool");
    logger->set_pattern("%Y-%m-%dT%H:%M:%S.%eZ level=%l %v", spdlog::pattern_time_type::utc);
    logger->set_level(spdlog::level::from_str(options.log_level));
    logger->flush_on(spdlog::level::info);
    spdlog::set_default_logger(logger);

    return hschool::server::run_server(options);
}
