#pragma once
// The game a live match plays, on the match thread only: the sim, the seats' order driver and the
// replay being written. It steps a frame's ticks with the masks it is given, records inputs and
// hashes, makes the §2.9 wall-clock stop, and restarts with the next seed.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "server/hns/contract/hns_metrics.hpp"
#include "sim/hns/driver.hpp"
#include "sim/hns/replay.hpp"
#include "sim/hns/sim.hpp"

namespace hschool::server::hns {

class MatchGame {
public:
    // `config`: what the replay's header says (the match's config as set up).
    MatchGame(sim::hns::Sim sim, const sim::hns::GameConfig& config, std::uint64_t start_ms);

    sim::hns::Sim& sim() { return sim_; }
    const sim::hns::Sim& sim() const { return sim_; }
    sim::hns::Driver& driver() { return driver_; }
    sim::hns::ReplayWriter& replay() { return writer_; }
    // The replay's time of the current tick (records are stamped with it).
    std::uint32_t now_ms() const;
    // A seat's say: shouted in the sim and, when the sim takes it, recorded.
    void shout(int slot, const std::string& say);

    // Steps up to `ticks` ticks, stopping early at a decision turn or the end; while the game is
    // played each seat's mask is `mask_of(slot)` (a frozen seeker's is 0), read after the driver
    // has observed the tick. Inputs and hashes go to the replay.
    void step(int ticks, const std::function<std::uint8_t(int slot)>& mask_of, HnsMetrics& metrics);
    // §2.9: the stop record, the forced stop, zero masks, one last step and its hash.
    void wall_clock_stop();
    // A replay this long would outgrow the archive: the match ends first.
    bool replay_full() const;
    // A fresh sim, driver and replay with the next seed (a pinned one plus one); false, and the
    // game plays on, if the config no longer makes one.
    bool restart();
    // The results record, then the replay's bytes.
    std::string close_replay(const std::string& results_json);
    // The phase as /metrics last heard it (lobby, playing, game_over).
    const std::string& phase_reported() const { return phase_reported_; }

private:
    sim::hns::Sim sim_;
    sim::hns::Driver driver_;
    sim::hns::ReplayWriter writer_;
    std::uint64_t start_ms_;
    std::vector<sim::hns::Input> masks_, prev_;
    std::string phase_reported_ = "lobby";
};

}  // namespace hschool::server::hns
