#pragma once
// What the command line and the environment set of hide-and-seek: the matches' and the leagues'
// budgets (each default named once, beside what enforces it), the COGAME_* drop-in and replay
// modes, where finished matches are kept, and who may change what. The game applies the modes.
#include <filesystem>
#include <string>
#include <vector>

#include "net/credentials.hpp"
#include "server/hns/contract/dropin_env.hpp"
#include "server/hns/contract/match_request.hpp"
#include "server/hns/hub/hub_options.hpp"
#include "server/hns/leagues/league_options.hpp"

namespace hschool::server::hns {

struct GameOptions {
    HubOptions hub;          // the live matches' caps and the default match's variant
    LeagueOptions leagues;   // the leagues' budgets
    DropInEnv dropin;        // COGAME_*: one league match, its files, then exit; or one replay played back
    // Finished matches are kept in PostgreSQL at database_url (shared by several servers), else in
    // hns-replays/archive.db beside the schools' file at data_path (none in drop-in and replay modes).
    std::filesystem::path data_path;
    std::string database_url;
    net::Ownership ownership;                  // owners mode: who may change a match or a league
    std::vector<std::string> allowed_origins;  // CORS on the controls besides the page's own host
};

}  // namespace hschool::server::hns
