#include "server/hns/contract/control.hpp"

#include "content/text_rules.hpp"
#include "server/hns/contract/text.hpp"

namespace hschool::server::hns {

ControlDecision decide_control(ControlRoute route, std::string_view method, const QueryParams& query,
                               const ControlState& state) {
    ControlDecision d;
    if (method == "OPTIONS") {
        d.status = 204;
        return d;
    }
    if (method != "POST") {  // the reference falls through to its catch-all
        d.body = kFallbackText;
        return d;
    }
    if (state.replay_mode) {
        d.status = 409;
        d.body = kReplayControlsText;
        return d;
    }
    if (route == ControlRoute::Restart) {
        d.status = 202;
        d.body = kRestartQueuedText;
        d.queue_restart = true;
        return d;
    }
    std::string identity = clean_player_name(query.get("identity"));
    if (identity.empty()) {
        d.status = 400;
        d.body = kMissingIdentityText;
        return d;
    }
    if (!content::is_clean_text(identity)) {  // no name like it can be seated, and it must not reach a log as is
        d.status = 400;
        d.body = kUncleanIdentityText;
        return d;
    }
    d.status = 202;
    d.body = kKickQueuedText;
    d.kick_identity = std::move(identity);
    return d;
}

}  // namespace hschool::server::hns
