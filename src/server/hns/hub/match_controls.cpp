#include "server/hns/hub/match_controls.hpp"

#include "server/hns/contract/permission.hpp"
#include "util/log.hpp"

namespace hschool::server::hns {

namespace {

ControlDecision plain_decision(int status, std::string body) {
    ControlDecision decision;
    decision.status = status;
    decision.body = std::move(body);
    return decision;
}

ControlDecision refused_decision(Permission permission) {
    ControlDecision refused;
    refused.status = permission == Permission::Missing ? 401 : 403;
    refused.refused = permission;
    return refused;
}

}  // namespace

ControlDecision MatchControls::control(ControlRoute route, std::string_view method, std::string_view query_text,
                                       std::string_view credential) {
    auto query = parse_query(query_text);
    if (!query) return plain_decision(400, "bad query: " + query.error + "\n");
    auto match = registry_.find_running(match_of(*query, registry_.default_id()));
    ControlState state;
    state.replay_mode = options_.replay_mode();  // 409 for every control of a replay server
    ControlDecision decision = decide_control(route, method, *query, state);
    if (!decision.queue_restart && decision.kick_identity.empty()) return decision;  // OPTIONS, a missing identity, other methods
    // Owners mode: a stranger learns nothing, not even whether the match runs.
    if (permission_of(options_.access, credential, "") == Permission::Missing) return refused_decision(Permission::Missing);
    if (!match) return plain_decision(404, "no running match\n");
    if (const Permission may = permission_of(options_.access, credential, match->owner_hash()); may != Permission::Granted)
        return refused_decision(may);
    return match->control(route, method, *query);
}

std::optional<HubError> MatchControls::remove(const std::string& id, std::string_view credential) {
    if (options_.league_only) return HubError{403, "league-match-only", "the league's match cannot be deleted (drop-in mode)"};
    if (permission_of(options_.access, credential, "") == Permission::Missing) return permission_error(Permission::Missing, "match " + id);
    Permission may = Permission::Granted;
    auto match = registry_.take_running(id, [&](const LiveMatch& m) {
        may = permission_of(options_.access, credential, m.owner_hash());
        return may == Permission::Granted;
    });
    if (may != Permission::Granted) return permission_error(may, "match " + id);
    if (!match) return archive_.remove(id, options_.access, credential);
    // Sockets get 1001 and nothing is archived; the supervisor joins the thread, not this one.
    match->request_stop();
    logging::info("event=hns_match_deleted id={}", id);
    supervisor_.retire(std::move(match));
    return std::nullopt;
}

}  // namespace hschool::server::hns
