#pragma once
// /ws/game: one WebSocket path for the arena (v1, v5) and the schools (v4), picked by the Hello's
// version byte. The endpoint checks a v4 upgrade's credentials before the 101; each connection's
// handler asks dispatch::on_message (game_dispatch.hpp) what a message means, carries the answer
// out, and tells the loop when the connection goes.
#include "net/ws_endpoint.hpp"
#include "server/game_dispatch.hpp"
#include "server/metrics.hpp"

namespace hschool::server {

class AccessPolicy;
class GameLoop;

inline constexpr const char* kGameSocketPath = "/ws/game";

// access: which credentials a v4 upgrade may carry (`?ownerToken=t1,t2`) to pause or speed up
// schools (open mode: every session may; an over-long list is refused 400 in any mode).
net::WsEndpoint game_socket_endpoint(GameLoop& loop, Metrics& metrics, const AccessPolicy& access);

}  // namespace hschool::server
