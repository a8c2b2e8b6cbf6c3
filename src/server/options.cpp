#include "server/options.hpp"

#include <CLI/CLI.hpp>
#include <iostream>

#include "server/limits.hpp"

namespace hschool::server {

std::variant<ServerOptions, int> parse_options(int argc, const char* const* argv) {
    ServerOptions o;
    CLI::App app{"hschool-server: authoritative game server for HSchool (arena v1 and schools v4 on /ws/game)"};
    // The last of a repeated option wins, so wrappers can append overrides.
    app.option_defaults()->always_capture_default()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    app.add_option("--address", o.address, "Address to listen on");
    app.add_option("--port", o.port, "TCP port for HTTP and WebSocket (0 picks a free port)");
    app.add_option("--tick-rate", o.tick_rate, "Simulation steps per second")->check(CLI::Range(kMinTickRate, kMaxTickRate));
    app.add_option("--data", o.data_path, "SQLite database file for schools");
    app.add_option("--mods", o.mods_path, "Folder of content packs");
    app.add_option("--web-root", o.web_root, "Folder of the built web client served at /");
    app.add_option("--log-level", o.log_level, "trace, debug, info, warn, error or off")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));
    app.add_option("--io-threads", o.io_threads, "Network threads")->check(CLI::Range(1, 64));
    app.add_option("--world-width", o.arena.width, "Arena width in world units");
    app.add_option("--world-height", o.arena.height, "Arena height in world units");
    app.add_option("--player-speed", o.arena.player_speed, "Avatar speed in units per second");
    app.add_option("--obstacles", o.arena.obstacle_count, "Number of static obstacles in the arena");
    app.add_option("--seed", o.arena.seed, "Seed for the arena's obstacle layout");
    app.add_option("--record", o.record_path, "Record the arena to this replay file (see hschool-replay)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    o.arena.tick_rate = static_cast<std::uint8_t>(o.tick_rate);
    if (const auto why = sim::arena::validate(o.arena)) {
        std::cerr << "hschool-server: invalid arena settings: " << *why << "\n";
        return 2;
    }
    return o;
}

}  // namespace hschool::server
