#pragma once
// A v5 client's replica: applies Frames by the session rules and says why one breaks them.
// The TypeScript client has its own (client/src/arena/v5Replica.ts); this one serves the tests,
// the load generator and the fuzzer.
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "protocol/v5.hpp"
#include "sim/arena/v5/tick_artifacts.hpp"

namespace hschool::sim::arena::v5 {

enum class ApplyError : std::uint8_t {
    FirstNotKeyframe,   // the first Frame must be a keyframe with baseTick 0
    BrokenChain,        // baseTick is not the tick of the previous Frame
    UnknownSlot,        // a leave or update names a slot the replica does not hold
    SlotTaken,          // an enter names a slot the replica holds
    SlotOutOfRange,     // a slot ≥ 2^14
    RepeatedSlot,       // a slot twice in one section
    QuantumOutOfRange,  // a delta moves a value outside 0..65535
};

const char* describe(ApplyError error);

class Replica {
public:
    // Applies one Frame whole, or nothing when it breaks a rule.
    std::optional<ApplyError> apply(const protocol::v5::Frame& frame);
    // The replica in slot order.
    std::vector<Visible> entries() const;
    std::size_t size() const { return slots_.size(); }
    std::uint32_t tick() const { return tick_; }
    bool started() const { return started_; }
    const std::vector<std::uint8_t>& far() const { return far_; }

private:
    std::unordered_map<std::uint16_t, Visible> slots_;
    std::vector<std::uint8_t> far_;
    std::uint32_t tick_ = 0;
    bool started_ = false;
};

}  // namespace hschool::sim::arena::v5
