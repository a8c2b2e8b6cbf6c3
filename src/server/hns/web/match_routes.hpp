#pragma once
// The hide-and-seek REST (/api/hns/...), the reference's plain-text routes (/healthz,
// /control/restart, /control/kick) and their answers; the sockets are in http_session.cpp.
#include <string>
#include <vector>

#include "net/http_router.hpp"

namespace hschool::server {

namespace hns {
class HnsHub;
struct HubError;
}

struct HnsRouteOptions {
    bool owners = false;                      // owners mode: the owner token handed out at creation
    std::vector<std::string> allowed_origins; // CORS on the controls only for these and the own host
    bool dropin = false;                      // a league pod: the reference's `Access-Control-Allow-Origin: *`
};

void add_hns_routes(net::HttpRouter& router, hns::HnsHub& hub, HnsRouteOptions options);

// A refused REST request as an application/problem+json answer (WWW-Authenticate on 401, Retry-After when set).
net::HttpResponse hub_error_response(const hns::HubError& error);

}  // namespace hschool::server
