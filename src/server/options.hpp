#pragma once
// Command-line options; every one has a default so `hschool-server` alone serves on 127.0.0.1:8080.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>

#include "server/access.hpp"
#include "server/hns/game_options.hpp"
#include "net/network.hpp"
#include "server/limits.hpp"
#include "sim/arena/arena_settings.hpp"

namespace hschool::server {

struct ServerOptions {
    std::string address = "127.0.0.1";
    std::uint16_t port = 8080;
    int tick_rate = kDefaultTickRate;
    std::filesystem::path data_path = "data/hschool.db";
    std::string database_url;  // PostgreSQL (issue 34; --database or $HSCHOOL_DATABASE_URL); "" : SQLite at data_path
    std::filesystem::path mods_path = "mods";
    std::filesystem::path web_root = "client/dist";
    bool web_root_given = false;  // an explicit --web-root must be usable; the default may be missing
    std::string log_level = "info";
    net::NetworkConfig network;  // address, port and io_threads above are copied in; the limits live here
    int io_threads = net::kDefaultIoThreads;
    sim::arena::ArenaSettings arena;
    std::size_t max_players = kDefaultMaxPlayers;  // avatars in the arena; one more gets 1013
    std::optional<std::filesystem::path> record_path;
    // Hide-and-seek (docs/hide-and-seek.md): the default match's variant, the cap on live matches,
    // and the league runners' drop-in mode, read from COGAME_* variables rather than flags.
    std::string hns_default_variant = "default";
    std::size_t hns_max_matches = hns::kDefaultMaxMatches;
    std::size_t hns_max_matches_per_ip = hns::kDefaultMaxMatchesPerAddress;
    std::size_t hns_max_viewers_per_match = hns::kDefaultMaxViewersPerMatch;
    std::size_t hns_max_viewers_per_ip = hns::kDefaultMaxViewersPerAddressPerMatch;
    std::size_t hns_max_replay_viewers = hns::kMaxReplayViewers;
    std::size_t hns_max_replay_viewers_per_ip = hns::kDefaultMaxReplayViewersPerAddress;
    int hns_max_ticks_per_second = hns::kDefaultMaxTicksPerSecond;
    int hns_match_threads = -1;  // -1: one per core; 0: a thread per match
    int hns_test_frame_delay_ms = 0;  // the abuse suite's overloaded server: matches behind by construction
    // Leagues (issue 33): running at once in all and per address, matches in one league, and the
    // matches all leagues play at once on their low-priority threads.
    std::size_t hns_max_leagues = hns::kDefaultMaxLeagues;
    std::size_t hns_max_leagues_per_ip = hns::kDefaultMaxLeaguesPerAddress;
    int hns_max_league_matches = hns::kDefaultMaxLeagueMatches;
    int hns_league_jobs = hns::kDefaultLeagueJobs;
    bool hns_league_idle = hns::kLeagueIdleScheduling;  // --hns-league-priority idle (else low)
    int hns_max_league_model_matches = hns::kDefaultMaxLeagueModelMatches;
    hns::DropInEnv dropin;
    // Who may change what (README "Running it in public"): --access, else by the listen address.
    AccessMode access = AccessMode::Open;
    std::filesystem::path admin_token_file;  // "" : <data folder>/admin.token
};

// The options, or the exit code to leave with (0 after --help, 2 after a bad option).
std::variant<ServerOptions, int> parse_options(int argc, const char* const* argv);

// Hide-and-seek's share of them (--hns-*, COGAME_*, where the data lives), with who may change what.
hns::GameOptions hns_game_options(const ServerOptions& options, net::Ownership ownership);

}  // namespace hschool::server
