#pragma once
// The matches' REST (/api/hns/variants, /api/hns/matches...) and the reference's plain-text routes
// (/healthz, /control/restart, /control/kick); the sockets are sockets.hpp's.
#include <string>
#include <vector>

#include "net/http_router.hpp"

namespace hschool::server::hns {

class HnsHub;

struct MatchRouteOptions {
    bool owners = false;                      // owners mode: the owner token handed out at creation
    std::vector<std::string> allowed_origins; // CORS on the controls only for these and the own host
    bool dropin = false;                      // a league pod: the reference's `Access-Control-Allow-Origin: *`
};

void add_match_routes(net::HttpRouter& router, HnsHub& hub, MatchRouteOptions options);

}  // namespace hschool::server::hns
