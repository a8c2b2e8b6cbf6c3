#pragma once
// Hide-and-seek's front door (issue 40): the composition opens the game, gives it the router and
// the WebSocket paths, starts it once the server listens and stops it on the way out. Everything
// else of the game stays in its rooms (docs/architecture.md "Inside hide-and-seek").
#include <memory>

#include "net/http_router.hpp"
#include "server/hns/contract/expected.hpp"
#include "server/hns/contract/hns_metrics.hpp"
#include "server/hns/game_options.hpp"

namespace hschool::net {
class WsEndpoints;
}

namespace hschool::store {
class HnsArchive;
}

namespace hschool::server::hns {

class HnsHub;
class LeagueHub;

class HnsGame {
public:
    // Reads replay mode's replay (verified) or drop-in mode's config, opens the archive of finished
    // matches, and makes the hub and the leagues; why not when any of it fails (the server then
    // does not start). Nothing runs until start().
    static Expected<std::unique_ptr<HnsGame>> open(GameOptions options, HnsMetrics& metrics);
    ~HnsGame();
    HnsGame(const HnsGame&) = delete;
    HnsGame& operator=(const HnsGame&) = delete;

    // The matches' and leagues' REST, the reference's plain-text routes and the /client pages
    // (`files` serves their index.html): before the router's catch-all.
    void add_routes(net::HttpRouter& router, const net::HttpHandler& files);
    // /player, /global, /admin, /reward and /replay.
    void add_sockets(net::WsEndpoints& endpoints);
    // The default match and the hub's threads, then the leagues' (their ids continue the hub's).
    Expected<Done> start();
    // Leagues first (a match being played finishes and is not archived), then every match (its
    // sockets get 1001); nothing is archived mid-match.
    void stop();
    // The transport prompt seats' model is asked through, for /health ("none" without one).
    const char* model_transport() const;

private:
    HnsGame(GameOptions options, std::unique_ptr<store::HnsArchive> archive, HnsMetrics& metrics);

    const GameOptions options_;
    std::unique_ptr<store::HnsArchive> archive_;
    std::unique_ptr<HnsHub> hub_;
    std::unique_ptr<LeagueHub> leagues_;
};

}  // namespace hschool::server::hns
