#pragma once
// The hide-and-seek WebSocket paths (spec §2.1: /player, /global, /admin, /reward, /replay), each
// an endpoint whose upgrade the hub admits or refuses (the reference's 403/409 texts) before the 101.
namespace hschool::net {
class WsEndpoints;
}

namespace hschool::server {
namespace hns {
class HnsHub;
}

void add_hns_sockets(net::WsEndpoints& endpoints, hns::HnsHub& hub);

}  // namespace hschool::server
