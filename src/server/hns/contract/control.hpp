#pragma once
// The answers of POST /control/restart and POST /control/kick?identity= (spec §2.1) as a pure
// decision over the match's state; the caller queues what the decision says.
#include <optional>
#include <string>
#include <string_view>

#include "server/hns/contract/permission.hpp"
#include "server/hns/contract/query.hpp"

namespace hschool::server::hns {

enum class ControlRoute { Restart, Kick };

struct ControlState {
    bool replay_mode = false;  // a /replay match: controls are refused with 409
};

struct ControlDecision {
    int status = 200;
    std::string body;
    bool queue_restart = false;
    std::string kick_identity;  // non-empty when a kick is to be queued
    std::optional<Permission> refused;  // owners mode: no credential (401) or a wrong one (403); nothing queued
    int retry_after_seconds = 0;        // a 429's Retry-After
};

inline constexpr const char* kKickListFullText = "kick list is full\n";
inline constexpr const char* kRestartTooSoonText = "restart requested too soon\n";

inline constexpr const char* kRestartQueuedText = "restart queued\n";
inline constexpr const char* kKickQueuedText = "kick queued\n";
inline constexpr const char* kMissingIdentityText = "missing identity\n";
inline constexpr const char* kUncleanIdentityText = "identity must be UTF-8 text without control or bidi characters\n";
inline constexpr const char* kReplayControlsText = "match controls are disabled for replays\n";
inline constexpr const char* kFallbackText = "HNS server";  // any other method or path

ControlDecision decide_control(ControlRoute route, std::string_view method, const QueryParams& query,
                               const ControlState& state);

}  // namespace hschool::server::hns
