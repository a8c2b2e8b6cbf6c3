#pragma once
// The leagues' REST (issue 33; docs/hide-and-seek.md "Leagues on the server"):
// POST/GET /api/hns/leagues, GET/DELETE /api/hns/leagues/{id}.
#include "net/http_router.hpp"

namespace hschool::server::hns {

class LeagueHub;

// owners: the 201 hands out an owner token (owners mode), as POST /api/hns/matches does.
void add_league_routes(net::HttpRouter& router, LeagueHub& leagues, bool owners);

}  // namespace hschool::server::hns
