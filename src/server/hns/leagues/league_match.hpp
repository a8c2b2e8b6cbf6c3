#pragma once
// One scheduled league match, on a league thread and outside the hub's lock: played in process (a
// league's runner is made before its first match: it reads the rooms) and archived under a fresh
// match id as kind "league", with the archive's league rows kept to their bound.
#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "league/entrant.hpp"
#include "league/schedule.hpp"
#include "server/hns/contract/expected.hpp"
#include "server/hns/leagues/league_runner.hpp"
#include "server/hns/llm/llm_settings.hpp"

namespace hschool::store {
class HnsArchive;
}

namespace hschool::server::hns {

// What a league match needs of its league (fixed at the league's creation).
struct LeagueMatchSetup {
    const std::vector<league::Entrant>& entrants;
    const std::string& variant;
    const std::map<std::string, std::string>& prompts;  // prompt entrants' guidance (to the model only)
    const std::atomic<bool>& halted;                    // the league stops: prompt seats ask no more
};

struct PlayedLeagueMatch {
    std::shared_ptr<const LeagueRunner> runner;  // the league's, made now if it had none
    Expected<LeagueRunner::Outcome> outcome;     // or why the match could not be played
};

// `runner`: the league's, or null before its first match.
PlayedLeagueMatch play_league_match(const LeagueMatchSetup& league, std::shared_ptr<const LeagueRunner> runner, const LlmSettings& llm,
                                    const league::ScheduledMatch& match);

// Saves the played match under `id` (owner_hash: the league's owner's), then trims the league
// matches to `max_archived`; why not when the save failed (a failed trim is logged).
Expected<Done> archive_league_match(store::HnsArchive& archive, const std::string& id, const std::string& variant,
                                    const std::string& owner_hash, const LeagueRunner& runner, const league::ScheduledMatch& match,
                                    const LeagueRunner::Outcome& outcome, std::size_t max_archived);

}  // namespace hschool::server::hns
