#pragma once
// What the REST reads of the matches, running or finished: the list (running ones first, the
// default at the top, then the newest finished), one match, and its replay for a download.
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "server/hns/contract/match_request.hpp"
#include "server/hns/contract/match_view.hpp"
#include "server/hns/hub/hub_worker.hpp"
#include "server/hns/hub/match_archive.hpp"
#include "server/hns/hub/match_registry.hpp"

namespace hschool::server::hns {

class MatchCatalog {
public:
    MatchCatalog(const MatchRegistry& registry, const MatchArchive& archive, HubWorker& worker)
        : registry_(registry), archive_(archive), worker_(worker) {}

    std::vector<MatchView> list() const;
    std::optional<MatchView> get(const std::string& id) const;
    // The finished match's replay file (checked, not read) for a download that streams it; 409
    // while the match runs.
    std::variant<std::string, HubError> replay_file(const std::string& id) const;
    // The finished match's replay bytes, read on the hub's worker (a shared database keeps replays
    // in rows: replay_file gives "" for them); `done` runs there, or at once with 503 when it is busy.
    void replay_bytes(const std::string& id, std::function<void(std::variant<std::string, HubError>)> done);

private:
    const MatchRegistry& registry_;
    const MatchArchive& archive_;
    HubWorker& worker_;
};

}  // namespace hschool::server::hns
