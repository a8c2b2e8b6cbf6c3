#pragma once
// `hschool-hns league`: a league played on --jobs threads, a replay per match and the table in
// DIR/league.json (docs/hide-and-seek.md, "Leagues"). Matches of built-ins play headless; a match
// with a prompt: or cmd: entrant plays through hschool-server (server_runner.hpp). SIGINT or
// SIGTERM stops handing out matches; the ones running finish and the table of what finished is
// written; a second signal kills every child process group and ends the league at once.
#include <string>
#include <vector>

#include "server_runner.hpp"

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
    std::string server;  // hschool-server for prompt:/cmd: matches ("" : find it)
    long long program_grace_seconds = kLeagueDefaultProgramGrace;
    bool quiet = false;
};

int run_league(const LeagueOptions& options);

}  // namespace hschool::tools::hns
