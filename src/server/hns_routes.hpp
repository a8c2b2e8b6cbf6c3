#pragma once
// The hide-and-seek REST (/api/hns/...), the reference's plain-text routes (/healthz,
// /control/restart, /control/kick) and their answers; the sockets are in http_session.cpp.
#include <string>
#include <vector>
#include "server/net_names.hpp"

namespace hschool::server {

class AccessPolicy;
namespace hns {
class HnsHub;
}

struct HnsRouteOptions {
    const AccessPolicy* access = nullptr;     // owners mode: the owner token handed out at creation
    std::vector<std::string> allowed_origins; // CORS on the controls only for these and the own host
    bool dropin = false;                      // a league pod: the reference's `Access-Control-Allow-Origin: *`
};

void add_hns_routes(HttpRouter& router, hns::HnsHub& hub, HnsRouteOptions options);

}  // namespace hschool::server
