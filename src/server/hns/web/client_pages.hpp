#pragma once
// The league runner's browser pages (spec §2.1): /client/player?slot=&token= (a seat's play page,
// token-checked like the /player upgrade without taking the seat), /client/global (the watch page of
// the league's match) and /client/replay (the replay page; in replay mode, of the loaded replay).
// Each is the built client's index.html with a <meta name="hschool-page"> naming the view and the
// match, answered 200 without a redirect; without a built client, a small page of our own.
#include "net/http_router.hpp"

namespace hschool::server::hns {

class SocketAdmission;

// `files`: the built client's static files (its index.html is the page).
void add_client_pages(net::HttpRouter& router, SocketAdmission& admission, net::HttpHandler files);

}  // namespace hschool::server::hns
