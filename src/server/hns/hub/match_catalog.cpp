#include "server/hns/hub/match_catalog.hpp"

#include <set>

#include "server/hns/hub/hub_options.hpp"

namespace hschool::server::hns {

std::vector<MatchView> MatchCatalog::list() const {
    std::vector<MatchView> out = registry_.running_views();
    std::set<std::string> running;
    for (const auto& view : out) running.insert(view.id);
    for (auto& finished : archive_.list(kMaxListedArchived))
        if (!running.count(finished.id)) out.push_back(std::move(finished));
    return out;
}

std::optional<MatchView> MatchCatalog::get(const std::string& id) const {
    if (auto match = registry_.find_running(id)) return match->view();
    return archive_.get(id);
}

std::variant<std::string, HubError> MatchCatalog::replay_file(const std::string& id) const {
    if (registry_.find_running(id)) return HubError{409, "match-running", "match " + id + " is still running; its replay is saved when it ends"};
    return archive_.replay_file(id);
}

void MatchCatalog::replay_bytes(const std::string& id, std::function<void(std::variant<std::string, HubError>)> done) {
    // Up to 64 MiB from a database: on the hub's worker, never on a network thread.
    if (!worker_.submit([this, id, done] { done(archive_.replay_bytes(id)); }))
        done(HubError{503, "busy", "too many requests are waiting; try again shortly", kBudgetRetryAfterSeconds});
}

}  // namespace hschool::server::hns
