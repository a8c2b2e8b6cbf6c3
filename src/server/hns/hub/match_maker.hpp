#pragma once
// Makes the live matches: the default one that starts with the server (and its successor after
// each), and those the REST asks for, within the caps (in all, and per client address). A big
// room's sim is built on the hub's worker, never on a network thread.
#include <functional>
#include <memory>
#include <string>
#include <variant>

#include "net/thread_role.hpp"
#include "server/hns/contract/expected.hpp"
#include "server/hns/contract/hns_metrics.hpp"
#include "server/hns/contract/match_request.hpp"
#include "server/hns/contract/match_view.hpp"
#include "server/hns/hub/hub_options.hpp"
#include "server/hns/hub/hub_worker.hpp"
#include "server/hns/hub/match_registry.hpp"
#include "server/hns/live/live_match.hpp"
#include "sim/hns/config.hpp"

namespace hschool::server::hns {

// A variant's config with the config keys applied and its room resolved; the error names the key.
std::variant<sim::hns::GameConfig, HubError> build_config(const CreateRequest& request);

class MatchMaker {
public:
    // launcher: starts the matches' threads at the hub's creator's priority, whoever asks (outlives the maker).
    MatchMaker(const HubOptions& options, MatchRegistry& registry, HubWorker& worker, MatchListener& listener, HnsMetrics& metrics,
               net::ThreadLauncher& launcher);

    // The default match (the variant's, or drop-in mode's config), when the hub runs one.
    Expected<Done> start_default();
    // Its successor, after the default match ended (a failure is logged).
    void renew_default();

    // owner_hash: SHA-256 of the token handed to the creator ("" in open mode). The sim is built on
    // the hub's worker, which then calls `done`; a full worker queue, the league's and replay modes
    // and the per-address budget answer at once.
    using CreateDone = std::function<void(std::variant<MatchView, HubError>)>;
    void create(CreateRequest request, std::string owner_hash, std::string address, CreateDone done);
    std::variant<MatchView, HubError> create_now(const CreateRequest& request, std::string owner_hash = {}, const std::string& address = {});

private:
    Expected<std::shared_ptr<LiveMatch>> launch(const std::string& variant, sim::hns::GameConfig config, int bots, bool is_default,
                                                std::string owner_hash, std::string address);
    std::optional<HubError> over_address_budget(const std::string& address) const;

    const HubOptions& options_;
    MatchRegistry& registry_;
    HubWorker& worker_;
    MatchListener& listener_;
    HnsMetrics& metrics_;
    net::ThreadLauncher& launcher_;
    std::unique_ptr<net::TaskPool> pool_;  // the matches' shared threads; none: a thread per match
};

}  // namespace hschool::server::hns
