#include "server/hns/leagues/league_table.hpp"

#include <boost/json.hpp>

#include "league/table_json.hpp"
#include "server/hns/contract/decisions.hpp"
#include "server/hns/leagues/league_request.hpp"
#include "util/log.hpp"

namespace hschool::server::hns {

namespace json = boost::json;

std::shared_ptr<const std::string> fit_league_table(const std::string& league_id, LeagueTableInput input) {
    auto fitted = league::build_table(input.entrants, std::move(input.results), input.info);
    if (!fitted) {
        logging::error("event=hns_league_table_failed id={} error=\"{}\"", league_id, fitted.error());
        return nullptr;
    }
    league::LeagueTable table = std::move(*fitted);
    const auto& entrants = input.entrants;
    for (std::size_t i = 0; i < table.entrants.size() && i < entrants.size(); ++i) table.entrants[i].kind = entrant_kind_text(entrants[i]);
    json::value value = league::table_json(table);
    auto& rows = value.as_object()["entrants"].as_array();
    for (std::size_t i = 0; i < rows.size() && i < entrants.size(); ++i) {
        if (!is_prompt_entrant(entrants[i])) continue;
        auto& row = rows[i].as_object();
        const auto it = input.prompt_turns.find(entrants[i].name);
        row["modelTurns"] = it == input.prompt_turns.end() ? 0 : it->second.model_turns;
        row["fallbackTurns"] = it == input.prompt_turns.end() ? 0 : it->second.fallback_turns;
        if (!input.model) row["fallback"] = kCauseNoCredentials;
    }
    return std::make_shared<const std::string>(json::serialize(value));
}

}  // namespace hschool::server::hns
