#pragma once
// The hide-and-seek WebSocket paths (spec §2.1: /player, /global, /admin, /reward, /replay), each
// an endpoint whose upgrade the hub admits or refuses (the reference's 403/409 texts) before the 101.
#include <cstddef>

#include "net/token_bucket.hpp"

namespace hschool::net {
class WsEndpoints;
}

namespace hschool::server::hns {

class SocketAdmission;

// A Sprite v1 client message: 0x86 debug sprites go up to 32 KiB a tick, texts to 4 KiB.
inline constexpr std::size_t kMaxSpriteInboundBytes = 40 * 1024;
// A Sprite v1 seat in fast mode answers every frame with a 0x85 (over 1,000 a second) and may send
// 32 KiB of debug sprites a tick: its floor. A flood beyond it is closed like any other.
inline constexpr net::BudgetLimits kSpriteInboundBudgetFloor{4000, 8000, 1024 * 1024, 2 * 1024 * 1024};

// /player, /global, /admin, /reward and /replay, each admitted (or refused) by `admission`.
void add_sockets(net::WsEndpoints& endpoints, SocketAdmission& admission);

}  // namespace hschool::server::hns
