#pragma once
// Drop-in mode for league runners (spec §2.9): the one match's config from COGAME_CONFIG_URI,
// its results and replay written to COGAME_RESULTS_URI and COGAME_SAVE_REPLAY_URI when it ends,
// the lobby-timeout report to COGAME_PLAYER_FAILURE_URI, then HTTP for the linger time, then exit.
#include <optional>
#include <string>

#include "server/hns/dropin_env.hpp"
#include "server/hns/hub.hpp"

namespace hschool::server {

// The match config the runner gave, or why it cannot be used.
std::optional<sim::hns::GameConfig> dropin_config(const hns::DropInEnv& env, std::string& error);

// Hooks the hub so the artifacts are written when the match ends and the process then stops
// itself (SIGTERM to itself after the linger, so shutdown takes the usual path).
void arm_dropin(hns::HnsHub& hub, const hns::DropInEnv& env);

}  // namespace hschool::server
