#pragma once
// Re-simulates a replay with ArenaWorld and compares the state hash after every step.
#include <cstdint>
#include <optional>
#include <string>

#include "protocol/bytes.hpp"
#include "sim/replay/replay_error.hpp"

namespace hschool::sim::replay {

struct ReplayVerdict {
    std::uint32_t ticks_checked = 0;                  // records re-simulated, the mismatching one included
    std::optional<std::uint32_t> first_mismatch_tick;  // verification stops there
    ReplayError error = ReplayError::None;            // why reading stopped early, if it did

    bool matched() const { return !first_mismatch_tick && (error == ReplayError::None || truncated()); }
    // Cut off mid-record: every complete record before the cut was still checked.
    bool truncated() const { return error == ReplayError::RecordTruncated; }
};

ReplayVerdict verify_replay(protocol::ByteView bytes);

// One line for people: "all N ticks matched", "hash mismatch at tick T", or the error.
std::string describe(const ReplayVerdict& verdict);

}  // namespace hschool::sim::replay
