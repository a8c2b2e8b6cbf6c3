#pragma once
// `hschool-hns league`: a league of built-in entrants played headless on --jobs threads, a replay
// per match and the table in DIR/league.json (docs/hide-and-seek.md, "Leagues"). SIGINT or SIGTERM
// stops handing out matches; the ones running finish and the table of what finished is written.
#include <string>
#include <vector>

namespace hschool::tools::hns {

inline constexpr long long kLeagueDefaultMatches = 24;
inline constexpr long long kLeagueMaxJobs = 64;
// Exit codes: 0 all played; 2 bad input or a failed match or write; 130 stopped by a signal.
inline constexpr int kLeagueExitStopped = 130;

struct LeagueOptions {
    std::vector<std::string> entrants;  // NAME=KIND
    long long matches = kLeagueDefaultMatches;  // per pairing
    std::string variant = "certification";
    long long seed = 0;
    long long jobs = 0;  // 0: the hardware's cores
    std::string out;
    bool quiet = false;
};

int run_league(const LeagueOptions& options);

}  // namespace hschool::tools::hns
