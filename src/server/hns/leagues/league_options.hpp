#pragma once
// What leagues may cost a server (issue 33): how many run, from whom, how long, on how many
// low-priority threads, and what is kept of them. Every default is named once, here (the command
// line's --hns-*league* options start from them).
#include <chrono>
#include <cstddef>
#include <optional>

#include "server/hns/contract/limits.hpp"
#include "server/hns/contract/match_request.hpp"
#include "server/hns/contract/permission.hpp"
#include "server/hns/leagues/league_request.hpp"
#include "server/hns/llm/llm_settings.hpp"

namespace hschool::server::hns {

inline constexpr std::size_t kDefaultMaxLeagues = 4;            // running at once in all (--hns-max-leagues; more: 503)
inline constexpr std::size_t kDefaultMaxLeaguesPerAddress = 2;  // running at once from one address (--hns-max-leagues-per-ip; more: 429)
// Pairings x matches of one league (--hns-max-league-matches; more: 400): each keeps a replay of 30-70 KB.
inline constexpr int kDefaultMaxLeagueMatches = 1000;
inline constexpr std::size_t kMaxKeptLeagues = 16;  // finished or stopped leagues kept; past it the oldest is forgotten
// Archived league matches; past it the oldest go (also those of leagues a restart forgot). The
// default budgets' kept and running leagues fill it exactly: (16 + 4) x 1000.
inline constexpr std::size_t kMaxArchivedLeagueMatches = 20000;
inline constexpr int kDefaultLeagueJobs = 1;  // matches all leagues play at once (--hns-league-jobs)
inline constexpr int kMaxLeagueJobs = 64;
inline constexpr int kLeagueNice = kWorkerNice;  // league matches yield to live matches, the network and the loop
// And run SCHED_IDLE by default: a woken live match preempts a league match at once, and a league
// takes only CPU that nothing else of the machine wants (nice alone let the frame p99 slip past
// 50 ms). A machine kept busy by other work never runs such a thread: --hns-league-priority low.
inline constexpr bool kLeagueIdleScheduling = true;
// A running league's table is refitted at most this often (1,000 bootstrap fits each time).
inline constexpr auto kLeagueTableRefresh = std::chrono::seconds(1);
// A league plays for minutes: a refused one is worth retrying a while later, not at once.
inline constexpr int kLeagueRetryAfterSeconds = 30;

struct LeagueOptions {
    std::size_t max_running = kDefaultMaxLeagues;
    std::size_t max_running_per_address = kDefaultMaxLeaguesPerAddress;  // 0: no cap
    int max_matches = kDefaultMaxLeagueMatches;
    std::size_t max_kept = kMaxKeptLeagues;
    std::size_t max_archived_matches = kMaxArchivedLeagueMatches;
    int jobs = kDefaultLeagueJobs;
    bool idle_scheduling = kLeagueIdleScheduling;  // false: nice kLeagueNice only
    LlmSettings llm;  // the model prompt entrants ask (transport None: they play burrow, no_credentials)
    int max_model_matches = kDefaultMaxLeagueModelMatches;  // with a model: matches with a prompt entrant a league
    AccessCheck access;             // owners mode; unset: everyone may delete (open mode)
    std::optional<HubError> disabled;  // drop-in and replay modes: every create answers this
};

}  // namespace hschool::server::hns
