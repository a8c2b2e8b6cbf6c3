#pragma once
// The two published scripted baselines (spec §3.15, the reference's baselines.nim), both roles
// each: `burrow` (drag cover to the door, lock it, hide) and `scatter` (never touches objects).
// Each emits the same Order a model would, once per decision turn.
#include <string_view>

#include "sim/hns/driver.hpp"
#include "sim/hns/orders.hpp"

namespace hschool::sim::hns {

enum class Baseline { Burrow, Scatter };

// The defaults are GameVersion 1's; baseline_params gives each version's.
struct BaselineParams {
    int panelReach = 200;
    int rampSweep = 300;
    int flinchRadius = 140;
    int chaseRadius = 340;
    int pushGiveUpTicks = 120;
    int doorRotation = 1;
};

// F6 (GameVersion 2): a known hider within 440 px is chased (340 before).
inline constexpr int kChaseRadiusV2 = 440;
BaselineParams baseline_params(GameVersion version);

inline constexpr int kDoorPlaceRadius = 48;
// A ramp is parked this far in from the far corner, and counts as parked within this radius.
inline constexpr int kFarCornerInset = 80;
inline constexpr int kRampParkRadius = 48;
// A seeker shoves a blocking object this far aside.
inline constexpr int kShoveAsidePx = 80;

// Anything but "scatter" is burrow, as the reference parses PLAYER_SCRIPTED.
Baseline parse_baseline(std::string_view text);
Order baseline_order(Baseline b, const Sim& sim, const Driver& driver, int slot, int turn,
                     const BaselineParams& params);
// With the parameters of the sim's own game version.
Order baseline_order(Baseline b, const Sim& sim, const Driver& driver, int slot, int turn);

}  // namespace hschool::sim::hns
