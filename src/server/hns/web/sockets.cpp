#include "server/hns/web/sockets.hpp"

#include "net/ws_endpoint.hpp"
#include "server/hns/contract/hns_metrics.hpp"
#include "server/hns/hub/socket_admission.hpp"
#include "server/hns/web/responses.hpp"

namespace hschool::server::hns {

void add_sockets(net::WsEndpoints& endpoints, SocketAdmission& admission) {
    net::WsEndpoint endpoint;
    endpoint.accept = [&admission](const net::WsUpgrade& upgrade) -> net::WsAccept {
        auto admitted = admission.admit(upgrade.path, upgrade.query, upgrade.address);
        if (auto* handler = std::get_if<std::shared_ptr<net::WsHandler>>(&admitted)) return std::move(*handler);
        return rejection_response(std::get<Rejection>(std::move(admitted)));
    };
    // Sprite v1 has no greeting: the match sends from the upgrade on.
    endpoint.protocol.tag = kSpriteTag;
    endpoint.protocol.max_message_bytes = kMaxSpriteInboundBytes;
    endpoint.protocol.budget_floor = kSpriteInboundBudgetFloor;
    for (const char* path : {"/player", "/global", "/admin", "/reward", "/replay"}) endpoints.add(path, endpoint);
}

}  // namespace hschool::server::hns
