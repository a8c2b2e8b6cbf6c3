#pragma once
// Which match or replay a socket means, and whether it may have it, before the upgrade: /player,
// /global, /admin and /reward go to their match (?match=, else the default one), /replay to a
// finished match's replay (or, in replay mode, the replay loaded at start) re-stepped for it alone.
// Refusals are the reference's plain-text 4xx/5xx. Also the /client pages' checks.
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "net/connection_limiter.hpp"
#include "net/task_pool.hpp"
#include "net/thread_role.hpp"
#include "net/ws_connection.hpp"
#include "server/hns/contract/admission.hpp"
#include "server/hns/contract/hns_metrics.hpp"
#include "server/hns/contract/limits.hpp"
#include "server/hns/contract/query.hpp"
#include "server/hns/hub/hub_options.hpp"
#include "server/hns/hub/hub_worker.hpp"
#include "server/hns/hub/match_registry.hpp"

namespace hschool::store {
class HnsArchive;
}

namespace hschool::server::hns {

inline constexpr const char* kMissingReplayUriText = "missing replay uri\n";
inline constexpr const char* kUnreadableReplayUriText = "replay uri is not readable\n";
inline constexpr const char* kOwnerTokenRefusedText = "owner token does not match this match\n";

class SocketAdmission {
public:
    // launcher: starts the replay pool's threads at the hub's creator's priority (outlives the admission).
    SocketAdmission(const HubOptions& options, const MatchRegistry& registry, store::HnsArchive* archive, HubWorker& worker,
                    HnsMetrics& metrics, net::ThreadLauncher& launcher);

    // Before a WebSocket upgrade on /player, /global, /admin, /reward or /replay. address: the
    // client's, for the per-address budgets.
    std::variant<Rejection, std::shared_ptr<net::WsHandler>> admit(std::string_view path, std::string_view query,
                                                                   const std::string& address = {});
    // /client/player: the 403/409 the /player upgrade would answer (same texts), or nothing; no seat
    // is taken. 404 when no match runs (replay mode, between matches).
    std::optional<Rejection> check_player_page(std::string_view query);
    // The match a /client page of this query shows: ?match=, else the default one ("" in replay mode).
    std::string page_match(std::string_view query) const;
    bool replay_mode() const { return options_.replay_mode(); }

private:
    // Reads a replay's bytes on the worker, or says why it cannot.
    using ReplayRead = std::function<std::variant<Rejection, std::string>()>;
    std::variant<Rejection, std::shared_ptr<net::WsHandler>> admit_replay(const QueryParams& query, const std::string& id,
                                                                          const std::string& address);
    std::variant<Rejection, ReplayRead> archived_replay(const QueryParams& query, const std::string& id);
    std::variant<Rejection, ReplayRead> loaded_replay(const QueryParams& query) const;

    const HubOptions& options_;
    const MatchRegistry& registry_;
    store::HnsArchive* archive_;
    HubWorker& worker_;
    HnsMetrics& metrics_;
    std::shared_ptr<std::atomic<int>> replay_viewers_ = std::make_shared<std::atomic<int>>(0);
    net::ConnectionLimiter replay_limiter_;  // /replay sockets in all and per address
    // Draws every /replay viewer's frames, a few threads at a low priority: a replay is a luxury
    // beside live matches, and under load its frames wait, not theirs.
    net::TaskPool replay_pool_;
};

}  // namespace hschool::server::hns
