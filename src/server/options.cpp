#include "server/options.hpp"

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>

#include "league/schedule.hpp"  // kMaxPlannedMatches: what a league can plan at all
#include "net/task_pool.hpp"     // one_per_core: the match pool's default size
#include "server/limits.hpp"
#include "store/pg/pg_connection.hpp"

namespace hschool::server {

std::variant<ServerOptions, int> parse_options(int argc, const char* const* argv) {
    ServerOptions o;
    auto ping_ms = static_cast<std::int64_t>(o.network.ping_interval.count());
    auto peer_ms = static_cast<std::int64_t>(o.network.peer_timeout.count());
    auto stall_ms = static_cast<std::int64_t>(o.network.write_stall.count());
    auto lag_ms = static_cast<std::int64_t>(o.network.max_delivery_lag.count());
    auto test_write_delay_ms = static_cast<std::int64_t>(o.network.test_write_delay.count());
    CLI::App app{"hschool-server: authoritative game server for HSchool (arena v1 and schools v4 on /ws/game)"};
    // The last of a repeated option wins, so wrappers can append overrides.
    app.option_defaults()->always_capture_default()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    app.add_option("--address", o.address, "Address to listen on");
    app.add_option("--port", o.port, "TCP port for HTTP and WebSocket (0 picks a free port)");
    app.add_option("--tick-rate", o.tick_rate, "Simulation steps per second")->check(CLI::Range(kMinTickRate, kMaxTickRate));
    app.add_option("--data", o.data_path, "SQLite database file for schools");
    // Several servers on one database (issue 34); the URL is never logged with its password.
    app.add_option("--database", o.database_url,
                   "PostgreSQL URL (postgresql://user:password@host:port/db) shared by several servers; schools and the "
                   "match archive live there instead of --data")
        ->envname("HSCHOOL_DATABASE_URL")
        ->check([](const std::string& url) {
            return url.empty() || store::pg::is_postgres_url(url) ? std::string() : std::string("not a postgresql:// URL");
        });
    app.add_option("--mods", o.mods_path, "Folder of content packs");
    auto* web_root = app.add_option("--web-root", o.web_root, "Folder of the built web client served at /");
    app.add_option("--log-level", o.log_level, "trace, debug, info, warn, error or off")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));
    app.add_option("--io-threads", o.io_threads, "Network threads")->check(CLI::Range(1, 64));
    app.add_option("--max-connections", o.network.max_connections, "Open WebSocket connections in all (0: no cap)");
    app.add_option("--max-players", o.max_players, "Avatars in the arena, v1 and v5 together (v1 joins also stop at a full 64 KiB snapshot)")
        ->check(CLI::Range(std::size_t{1}, kMaxMaxPlayers));
    app.add_option("--max-connections-per-ip", o.network.max_connections_per_ip,
                   "Open WebSocket connections from one client address (0: no cap)");
    app.add_option("--max-http-connections", o.network.max_http_connections, "Open plain HTTP connections in all (0: no cap); the next gets 503");
    app.add_option("--max-http-connections-per-ip", o.network.max_http_connections_per_ip,
                   "Open plain HTTP connections from one client address (0: no cap); the next gets 503");
    app.add_option("--allow-origin", o.network.allowed_origins,
                   "Also accept WebSocket upgrades from this Origin (scheme://host[:port]); repeatable. The server's own host is always allowed")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    app.add_option("--ws-message-rate", o.network.inbound_budget.messages_per_second, "Frames a WebSocket may send per second, sustained")
        ->check(CLI::Range(1, 1'000'000));
    app.add_option("--ws-message-burst", o.network.inbound_budget.message_burst, "Frames a WebSocket may send at once")
        ->check(CLI::Range(1, 1'000'000));
    app.add_option("--ws-byte-rate", o.network.inbound_budget.bytes_per_second, "Payload bytes a WebSocket may send per second, sustained")
        ->check(CLI::Range(1, 1'000'000'000));
    app.add_option("--ws-byte-burst", o.network.inbound_budget.byte_burst, "Payload bytes a WebSocket may send at once")
        ->check(CLI::Range(65'536, 1'000'000'000));
    app.add_option("--ping-interval-ms", ping_ms, "WebSocket ping interval after Hello")->check(CLI::Range(10, 3'600'000));
    app.add_option("--peer-timeout-ms", peer_ms, "Close a connection silent (no pong, no frame) for this long")
        ->check(CLI::Range(10, 3'600'000));
    app.add_option("--write-stall-ms", stall_ms, "Drop a connection whose socket accepts nothing for this long")
        ->check(CLI::Range(10, 3'600'000));
    app.add_option("--max-delivery-lag-ms", lag_ms,
                   "A reader that has not read what was written this long ago is skipped forward (ticks, spectator "
                   "streams) until it catches up; one still behind after --write-stall-ms more is dropped (0: off)")
        ->check(CLI::Range(0, 3'600'000));
    app.add_option("--test-network-write-delay-ms", test_write_delay_ms,
                   "Testing only: each network thread sleeps this many ms for every frame it writes, so it writes at most "
                   "1000/N frames a second and a busy server's frames pile up faster than they are written (0: off)")
        ->check(CLI::Range(0, 1'000));
    app.add_option("--world-width", o.arena.width, "Arena width in world units");
    app.add_option("--world-height", o.arena.height, "Arena height in world units");
    app.add_option("--player-speed", o.arena.player_speed, "Avatar speed in units per second");
    app.add_option("--obstacles", o.arena.obstacle_count, "Number of static obstacles in the arena");
    app.add_option("--seed", o.arena.seed, "Seed for the arena's obstacle layout");
    app.add_option("--record", o.record_path, "Record the arena to this replay file (see hschool-replay)");
    app.add_option("--hns-default-variant", o.hns_default_variant, "Variant of the hide-and-seek match that starts with the server")
        ->check(CLI::IsMember(hns::variant_names()));
    app.add_option("--hns-max-matches", o.hns_max_matches, "Hide-and-seek matches that may run at once (more: 409)")
        ->check(CLI::Range(1, 4096));
    app.add_option("--hns-max-matches-per-ip", o.hns_max_matches_per_ip, "Live REST-made matches one client address may have (more: 429; 0: no cap)");
    app.add_option("--hns-max-viewers-per-match", o.hns_max_viewers_per_match, "/global, /admin and /reward sockets of one match (more: 503; 0: no cap)");
    app.add_option("--hns-max-viewers-per-ip", o.hns_max_viewers_per_ip, "Such sockets of one match from one address (more: 429; 0: no cap)");
    app.add_option("--hns-max-replay-viewers", o.hns_max_replay_viewers, "/replay sockets in all (more: 503)")->check(CLI::Range(1, 4096));
    app.add_option("--hns-max-replay-viewers-per-ip", o.hns_max_replay_viewers_per_ip, "/replay sockets from one address (more: 429; 0: no cap)");
    app.add_option("--hns-max-ticks-per-second", o.hns_max_ticks_per_second, "Fast mode's ceiling: ticks a match may step per second")
        ->check(CLI::Range(24, 1'000'000));
    app.add_option("--hns-match-threads", o.hns_match_threads,
                   "Threads the live matches share (default: one per core; 0: a thread per match, as when a model is configured)")
        ->check(CLI::Range(0, 256));
    app.add_option("--hns-test-frame-delay-ms", o.hns_test_frame_delay_ms,
                   "Testing: every live match frame is followed by this many ms of sleep, so with more than 41 the matches "
                   "fall behind 24 Hz by construction (0: off)")
        ->check(CLI::Range(0, 10'000));
    app.add_option("--hns-max-leagues", o.hns_max_leagues, "Leagues that may run at once (more: 503)")->check(CLI::Range(1, 1024));
    app.add_option("--hns-max-leagues-per-ip", o.hns_max_leagues_per_ip, "Running leagues one client address may have (more: 429; 0: no cap)");
    app.add_option("--hns-max-league-matches", o.hns_max_league_matches, "Matches in one league, pairings x matches (more: 400)")
        ->check(CLI::Range(1, hschool::league::kMaxPlannedMatches));
    app.add_option("--hns-max-league-model-matches", o.hns_max_league_model_matches,
                   "With a language model configured: matches with a prompt entrant in one league, each asking the model every turn "
                   "(more: 400; 0: no prompt entrants)")
        ->check(CLI::Range(0, hschool::league::kMaxPlannedMatches));
    app.add_option("--hns-league-jobs", o.hns_league_jobs, "League matches played at once by all leagues, each on a low-priority thread")
        ->check(CLI::Range(1, hns::kMaxLeagueJobs));
    std::string league_priority = hns::kLeagueIdleScheduling ? "idle" : "low";
    app.add_option("--hns-league-priority", league_priority,
                   "idle: league matches take only CPU nothing else of the machine wants (default); "
                   "low: they yield to the server's other threads but share the machine with other programs")
        ->check(CLI::IsMember({"idle", "low"}));
    std::string access;
    app.add_option("--access", access,
                   "Who may end or change what: open (anyone, as the reference) or owners (the owner's or the operator's token). "
                   "Default: open on a loopback address and in drop-in mode, owners otherwise")
        ->check(CLI::IsMember({"open", "owners"}));
    app.add_option("--admin-token-file", o.admin_token_file,
                   std::string("The operator's token (owners mode); created with a fresh token when missing. Default: $") +
                       kAdminTokenFileEnv + ", else " + kAdminTokenFileName + " beside --data");
    try {
        app.parse(argc, argv);
        o.web_root_given = web_root->count() > 0;
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    o.arena.tick_rate = static_cast<std::uint8_t>(o.tick_rate);
    o.network.io_threads = o.io_threads;
    o.network.ping_interval = std::chrono::milliseconds(ping_ms);
    o.network.peer_timeout = std::chrono::milliseconds(peer_ms);
    o.network.write_stall = std::chrono::milliseconds(stall_ms);
    o.network.max_delivery_lag = std::chrono::milliseconds(lag_ms);
    o.network.test_write_delay = std::chrono::milliseconds(test_write_delay_ms);
    // Drop-in mode for league runners (spec §2.9): COGAME_CONFIG_URI and its friends, file:// only.
    auto dropin = hns::read_dropin_env([](const char* name) { return std::getenv(name); });
    if (!dropin) {
        std::cerr << "hschool-server: " << dropin.error << "\n";
        return 2;
    }
    o.dropin = *dropin;
    if (o.dropin.active || o.dropin.replay) {
        o.address = o.dropin.host;
        o.port = o.dropin.port;
    }
    o.network.address = o.address;
    o.network.port = o.port;
    o.hns_league_idle = league_priority == "idle";
    o.access = access.empty() ? default_access_mode(o.address, o.dropin.active || o.dropin.replay) : *parse_access_mode(access);
    if (o.admin_token_file.empty()) {
        if (const char* from_env = std::getenv(kAdminTokenFileEnv); from_env && *from_env) o.admin_token_file = from_env;
        else o.admin_token_file = (o.data_path.parent_path().empty() ? std::filesystem::path(".") : o.data_path.parent_path()) / kAdminTokenFileName;
    }
    if (const auto why = sim::arena::validate(o.arena)) {
        std::cerr << "hschool-server: invalid arena settings: " << *why << "\n";
        return 2;
    }
    return o;
}

hns::GameOptions hns_game_options(const ServerOptions& o, net::Ownership ownership) {
    hns::GameOptions g;
    g.hub.max_matches = o.hns_max_matches;
    g.hub.default_variant = o.hns_default_variant;
    g.hub.max_matches_per_address = o.hns_max_matches_per_ip;
    g.hub.max_viewers_per_match = o.hns_max_viewers_per_match;
    g.hub.max_viewers_per_address_per_match = o.hns_max_viewers_per_ip;
    g.hub.max_replay_viewers = o.hns_max_replay_viewers;
    g.hub.max_replay_viewers_per_address = o.hns_max_replay_viewers_per_ip;
    g.hub.max_ticks_per_second = o.hns_max_ticks_per_second;
    g.hub.test_frame_delay = std::chrono::milliseconds(o.hns_test_frame_delay_ms);
    g.hub.match_threads = o.hns_match_threads >= 0 ? static_cast<std::size_t>(o.hns_match_threads) : net::TaskPool::one_per_core();
    g.leagues.max_running = o.hns_max_leagues;
    g.leagues.max_running_per_address = o.hns_max_leagues_per_ip;
    g.leagues.max_matches = o.hns_max_league_matches;
    g.leagues.jobs = o.hns_league_jobs;
    g.leagues.idle_scheduling = o.hns_league_idle;
    g.leagues.max_model_matches = o.hns_max_league_model_matches;
    g.dropin = o.dropin;
    g.data_path = o.data_path;
    g.database_url = o.database_url;
    g.ownership = std::move(ownership);
    g.allowed_origins = o.network.allowed_origins;
    return g;
}

}  // namespace hschool::server
