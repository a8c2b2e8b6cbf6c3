// hschool-server: parses the command line, sets up logging, runs the server.
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include "server/options.hpp"
#include "server/server.hpp"

int main(int argc, char** argv) {
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
