#pragma once
// A league's table as the REST serves it: league.json's object, fitted by src/league, with each
// prompt entrant's kind as the client gave it and how its turns went (modelTurns and fallbackTurns
// over its matches; "fallback" when no model is configured). Fitted on a league thread, outside the
// hub's lock, from a copy of the league's results.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "league/entrant.hpp"
#include "league/table.hpp"
#include "server/hns/leagues/league_prompt_seats.hpp"

namespace hschool::server::hns {

struct LeagueTableInput {
    std::vector<league::Entrant> entrants;
    std::vector<league::MatchResult> results;
    league::LeagueInfo info;
    std::map<std::string, PromptSeatTally> prompt_turns;  // each prompt entrant's turns, summed over its matches
    bool model = false;                                   // prompt entrants ask a model
};

// league.json's object, serialized; null (the failure logged) when the results cannot be fitted.
std::shared_ptr<const std::string> fit_league_table(const std::string& league_id, LeagueTableInput input);

}  // namespace hschool::server::hns
