#include "server/hns/web/sockets.hpp"

#include <string>

#include "net/ws_endpoint.hpp"
#include "server/hns/hub/hub.hpp"
#include "server/hns/contract/hns_metrics.hpp"

namespace hschool::server {

void add_hns_sockets(net::WsEndpoints& endpoints, hns::HnsHub& hub) {
    net::WsEndpoint endpoint;
    endpoint.accept = [&hub](const net::WsUpgrade& upgrade) -> net::WsAccept {
        auto admitted = hub.admission().admit(upgrade.path, upgrade.query, upgrade.address);
        if (auto* sink = std::get_if<std::shared_ptr<net::WsHandler>>(&admitted)) return std::move(*sink);
        auto& refused = std::get<hns::Rejection>(admitted);
        net::HttpResponse response{static_cast<unsigned>(refused.status), "text/plain; charset=utf-8", std::move(refused.body),
                                   {{"Cache-Control", "no-cache"}}};
        if (refused.retry_after_seconds > 0) response.headers.emplace_back("Retry-After", std::to_string(refused.retry_after_seconds));
        return response;
    };
    // Sprite v1 has no greeting: the match sends from the upgrade on.
    endpoint.protocol.tag = hns::kSpriteTag;
    endpoint.protocol.max_message_bytes = hns::kMaxSpriteInboundBytes;
    endpoint.protocol.budget_floor = hns::kSpriteInboundBudgetFloor;
    for (const char* path : {"/player", "/global", "/admin", "/reward", "/replay"}) endpoints.add(path, endpoint);
}

}  // namespace hschool::server
