#pragma once
// league.json (issue 33; documented in docs/hide-and-seek.md, "Leagues"): the table as a Boost.JSON
// value, and an indented text of it whose numbers read as decimals (1523.4, not 1.5234E3).
#include <string>

#include <boost/json/value.hpp>

#include "league/table.hpp"

namespace hschool::league {

inline constexpr int kLeagueJsonVersion = 2;  // 2: gameVersion, and ratings of the margin model

boost::json::value table_json(const LeagueTable& table);
// The state as league.json (and the server's REST) names it: running, finished, stopped.
const char* league_state_text(LeagueState state);
std::string pretty_json(const boost::json::value& value);

}  // namespace hschool::league
