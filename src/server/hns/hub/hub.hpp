#pragma once
// Every hide-and-seek match of the process, put together: the registry of live matches and ids,
// the archive of finished ones, the worker for slow jobs, the maker of new matches, the supervisor
// of ending ones, the door for sockets and the controls. The web room talks to the parts.
#include <memory>
#include <string>

#include "net/thread_role.hpp"
#include "server/hns/contract/expected.hpp"
#include "server/hns/contract/hns_metrics.hpp"
#include "server/hns/hub/hub_options.hpp"
#include "server/hns/hub/hub_worker.hpp"
#include "server/hns/hub/match_archive.hpp"
#include "server/hns/hub/match_catalog.hpp"
#include "server/hns/hub/match_controls.hpp"
#include "server/hns/hub/match_maker.hpp"
#include "server/hns/hub/match_registry.hpp"
#include "server/hns/hub/match_supervisor.hpp"
#include "server/hns/hub/socket_admission.hpp"

namespace hschool::store {
class HnsArchive;
}

namespace hschool::server::hns {

class HnsHub {
public:
    // archive: null keeps nothing of finished matches.
    HnsHub(HubOptions options, store::HnsArchive* archive, HnsMetrics& metrics);
    ~HnsHub();
    HnsHub(const HnsHub&) = delete;
    HnsHub& operator=(const HnsHub&) = delete;

    // Ids continue from the archive's, the default match starts (when configured), then the
    // supervisor and the worker; why not when one of them cannot.
    Expected<Done> start();
    // Stops every match (sockets get 1001) and the hub's threads; nothing is archived mid-match.
    void stop();

    MatchMaker& maker() { return maker_; }
    MatchCatalog& catalog() { return catalog_; }
    MatchControls& controls() { return controls_; }
    SocketAdmission& admission() { return admission_; }
    MatchSupervisor& supervisor() { return supervisor_; }
    // The match that started with the server ("" between one default match and the next).
    std::string default_match_id() const { return registry_.default_id(); }
    // A fresh id from the matches' own sequence: a league's matches are archived under such ids too.
    std::string new_match_id() { return registry_.new_match_id(); }

private:
    const HubOptions options_;
    MatchRegistry registry_;
    MatchArchive archive_;
    HubWorker worker_;
    net::ThreadLauncher launcher_;  // the matches' and the replay viewers' threads, at the hub's creator's priority (outlives them)
    MatchSupervisor supervisor_;
    MatchMaker maker_;
    MatchCatalog catalog_;
    MatchControls controls_;
    SocketAdmission admission_;
    bool stopped_ = false;
};

}  // namespace hschool::server::hns
