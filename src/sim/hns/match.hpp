#pragma once
// A whole headless match with six scripted seats, following the reference server's loop: joins,
// decision turns every turnTicks while Playing, masks compiled by the driver, the step, a hash
// record per tick, and the final result record. No clock: it runs as fast as the CPU allows.
#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/hns/baselines.hpp"
#include "sim/hns/driver.hpp"
#include "sim/hns/replay.hpp"
#include "sim/hns/seat_policy.hpp"
#include "sim/hns/sim.hpp"

namespace hschool::sim::hns {

struct MatchOptions {
    std::array<Baseline, 6> seats{Baseline::Burrow, Baseline::Burrow, Baseline::Burrow,
                                  Baseline::Burrow, Baseline::Burrow, Baseline::Burrow};
    std::uint64_t startMs = 0;  // the replay header's start time (0 keeps replays byte-identical)
    int maxTicks = 1000000;     // a guard against a config that never ends
    // Unset: as the config's game version plays (GameVersion 1 without, 2 with enemy memory and
    // its baseline parameters); set, they override it (Driver::set_enemy_memory, BaselineParams).
    std::optional<bool> enemyMemory;
    std::optional<BaselineParams> params;
    // A policy set here plays its seat instead of seats[s] (reference_seats.hpp); unset seats are
    // the baselines, exactly as before.
    std::array<std::shared_ptr<const SeatPolicy>, 6> policies{};
    // The server's wall-clock stop (§2.9), by tick for reproducibility: at this pre-step tick the
    // stop record is written, the stop forced, zero masks applied for one last step. 0 = none.
    int wallClockStopTick = 0;
};

struct MatchOutcome {
    std::string replay;   // COWLDHNS bytes
    std::string results;  // results JSON
    int finalTick = 0;
    std::uint64_t finalHash = 0;
};

// `progress` (optional) is called once per tick with the tick count.
Expected<MatchOutcome> run_match(const GameConfig& config, const MatchOptions& options,
                                 const std::function<void(const Sim&)>& progress = {});

}  // namespace hschool::sim::hns
