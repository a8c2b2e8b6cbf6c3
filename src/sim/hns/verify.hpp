#pragma once
// Re-steps a replay from its config echo, joins, masks, chats and stop record exactly as the
// reference's stepReplay does, and names the first tick whose hash differs.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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

// One tick at a time through a replay: what verify_replay does in a loop, and what a replay
// viewer does frame by frame. `data` must outlive the stepper.
class ReplayStepper {
public:
    static Expected<ReplayStepper> create(const ReplayData& data);

    enum class Status {
        Stepped,   // one tick applied; its hash (when recorded) matched
        Mismatch,  // one tick applied; its hash differs, or its record is missing
        End,       // nothing stepped: the last recorded tick was reached
        Error,     // nothing stepped: a record the sim cannot apply (see error())
    };
    Status step();

    const Sim& sim() const { return *sim_; }
    int final_tick() const { return maxTick_; }
    bool done() const { return sim_->tick_count() >= maxTick_ || hi_ >= data_->hashes.size(); }
    int checked() const { return checked_; }
    const std::string& error() const { return error_; }
    std::uint64_t expected_hash() const { return expected_; }
    std::uint64_t got_hash() const { return got_; }

private:
    ReplayStepper(const ReplayData& data, Sim sim);
    void ensure(std::size_t player);

    const ReplayData* data_;
    std::optional<Sim> sim_;
    int maxTick_ = 0;
    std::size_t ji_ = 0, li_ = 0, ii_ = 0, ci_ = 0, hi_ = 0;
    std::vector<std::uint8_t> masks_, pressed_, lastApplied_;
    std::vector<Input> inputs_, prev_;
    int checked_ = 0;
    std::string error_;
    std::uint64_t expected_ = 0, got_ = 0;
};

}  // namespace hschool::sim::hns
