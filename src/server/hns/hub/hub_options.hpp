#pragma once
// What the hub may run and for whom: its caps, the default match, and the drop-in and replay modes'
// restrictions. Every default is named once, here (the command line's --hns-* options start from them).
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "server/hns/contract/limits.hpp"
#include "server/hns/contract/permission.hpp"
#include "sim/hns/config.hpp"

namespace hschool::server::hns {

inline constexpr std::size_t kDefaultMaxMatches = 128;  // concurrent live matches (--hns-max-matches)
inline constexpr std::size_t kMaxListedArchived = 50;   // finished matches listed by GET /api/hns/matches
inline constexpr std::size_t kMaxArchivedMatches = 500; // older finished matches are deleted
inline constexpr std::size_t kMaxReplayViewers = 64;    // /replay sockets re-stepping at once
inline constexpr std::size_t kDefaultMaxReplayViewersPerAddress = 8;
inline constexpr std::size_t kDefaultMaxMatchesPerAddress = 8;      // live REST-made matches one address may have
inline constexpr std::size_t kDefaultMaxViewersPerMatch = 256;      // /global, /admin and /reward sockets of one match
inline constexpr std::size_t kDefaultMaxViewersPerAddressPerMatch = 16;
inline constexpr std::size_t kMaxPendingHubJobs = 128;  // creates and /replay loads waiting for the hub's worker (503/1013 past it)
inline constexpr int kBudgetRetryAfterSeconds = 5;

struct HubOptions {
    std::size_t max_matches = kDefaultMaxMatches;
    bool default_match = true;
    std::string default_variant = "default";
    std::optional<sim::hns::GameConfig> default_config;  // drop-in mode: this config instead of the variant
    bool renew_default = true;                           // drop-in mode runs exactly one match
    bool league_only = false;  // drop-in mode: no match may be created or deleted through the REST
    std::size_t max_matches_per_address = kDefaultMaxMatchesPerAddress;  // 0: no cap
    std::size_t max_replay_viewers = kMaxReplayViewers;
    std::size_t max_replay_viewers_per_address = kDefaultMaxReplayViewersPerAddress;
    std::size_t max_viewers_per_match = kDefaultMaxViewersPerMatch;
    std::size_t max_viewers_per_address_per_match = kDefaultMaxViewersPerAddressPerMatch;
    int max_ticks_per_second = kDefaultMaxTicksPerSecond;
    // Threads the live matches share (issue 42); 0: a thread per match. A model to ask (prompt
    // seats) also means a thread per match: its answers take seconds.
    std::size_t match_threads = 0;
    std::chrono::milliseconds test_frame_delay{0};  // testing: a sleep after every live frame (issue 42's overload)
    // Who may end or change a match (owners mode); unset: everyone (open mode).
    AccessCheck access;
    // Replay-server mode (COGAME_LOAD_REPLAY_URI): this verified replay on /replay, no live match,
    // no controls, no creates. replay_uri is the URI it was loaded from (/replay?uri= must name it).
    std::shared_ptr<const std::string> replay_bytes;
    std::string replay_uri;

    bool replay_mode() const { return replay_bytes != nullptr; }
};

}  // namespace hschool::server::hns
