#pragma once
// Drop-in mode for league runners (spec §2.9): the one match's config from COGAME_CONFIG_URI,
// its results, replay, events and metrics written to COGAME_RESULTS_URI, COGAME_SAVE_REPLAY_URI,
// COGAME_EVENTS_URI and COGAME_METRICS_URI when it ends,
// the lobby-timeout report to COGAME_PLAYER_FAILURE_URI, then HTTP for the linger time, then exit.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "server/hns/contract/dropin_env.hpp"
#include "server/hns/contract/expected.hpp"
#include "server/hns/hub/hub.hpp"

namespace hschool::server::hns {

// The match config the runner gave, or why it cannot be used.
Expected<sim::hns::GameConfig> dropin_config(const DropInEnv& env);

// Replay-server mode (COGAME_LOAD_REPLAY_URI): the replay's bytes once it has been read, parsed
// and re-stepped with every hash equal; otherwise the first bad tick, or why the file cannot be
// used (the start fails).
Expected<std::shared_ptr<const std::string>> load_verified_replay(const std::filesystem::path& path);

// Hooks the hub so the artifacts are written when the match ends and the process then stops
// itself (SIGTERM to itself after the linger, so shutdown takes the usual path).
void arm_dropin(HnsHub& hub, const DropInEnv& env);

}  // namespace hschool::server::hns
