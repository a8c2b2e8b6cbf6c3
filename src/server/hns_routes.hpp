#pragma once
// The hide-and-seek REST (/api/hns/...), the reference's plain-text routes (/healthz,
// /control/restart, /control/kick) and their answers; the sockets are in http_session.cpp.
namespace hschool::server {

class HttpRouter;
namespace hns {
class HnsHub;
}

void add_hns_routes(HttpRouter& router, hns::HnsHub& hub);

}  // namespace hschool::server
