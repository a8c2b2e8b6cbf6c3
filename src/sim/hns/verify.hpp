#pragma once
// Re-steps a replay from its config echo, joins, masks, chats and stop record exactly as the
// reference's stepReplay does, and names the first tick whose hash differs.
#include <cstdint>
#include <string>

#include "sim/hns/replay.hpp"
#include "sim/hns/sim.hpp"

namespace hschool::sim::hns {

struct VerifyReport {
    bool ok = false;
    int ticks = 0;             // ticks stepped
    int checked = 0;           // hashes compared and equal
    int mismatchTick = 0;      // first tick whose hash differs or is missing; 0 if none
    std::uint64_t expected = 0, got = 0;
    std::string error;         // a setup or record problem (bad config, bad join order)
    std::string results;       // the re-derived results JSON
    std::string message() const;
};

VerifyReport verify_replay(const ReplayData& data);

// Builds the sim a replay describes (config echo with its pinned mapSpec).
Expected<Sim> sim_for_replay(const ReplayData& data);

}  // namespace hschool::sim::hns
