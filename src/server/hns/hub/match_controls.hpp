#pragma once
// What may change a match once it runs: the reference's plain-text controls (restart, kick) and
// the REST's delete, each asked of the access check first (owners mode: the match's owner or the
// operator), refused in drop-in and replay modes as the reference refuses them.
#include <optional>
#include <string>
#include <string_view>

#include "server/hns/contract/control.hpp"
#include "server/hns/contract/match_request.hpp"
#include "server/hns/hub/hub_options.hpp"
#include "server/hns/hub/match_archive.hpp"
#include "server/hns/hub/match_registry.hpp"
#include "server/hns/hub/match_supervisor.hpp"

namespace hschool::server::hns {

class MatchControls {
public:
    MatchControls(const HubOptions& options, MatchRegistry& registry, MatchArchive& archive, MatchSupervisor& supervisor)
        : options_(options), registry_(registry), archive_(archive), supervisor_(supervisor) {}

    // credential: the request's bearer token (may be empty); restart and kick need the owner's or
    // the operator's when the access check asks for one.
    ControlDecision control(ControlRoute route, std::string_view method, std::string_view query, std::string_view credential);
    // A running match ends now (sockets get 1001, nothing is archived); a finished one leaves the archive.
    std::optional<HubError> remove(const std::string& id, std::string_view credential = {});

private:
    const HubOptions& options_;
    MatchRegistry& registry_;
    MatchArchive& archive_;
    MatchSupervisor& supervisor_;
};

}  // namespace hschool::server::hns
