#pragma once
// A v5 client's replica: applies Frames by the session rules and says why one breaks them.
// The TypeScript client has its own (client/src/arena/v5Replica.ts); this one serves the tests,
// the load generator and the fuzzer.
#include <cstdint>
#include <optional>
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
    std::size_t size() const { return items_.size(); }
    std::uint32_t tick() const { return tick_; }
    bool started() const { return started_; }
    const std::vector<std::uint8_t>& far() const { return far_; }

private:
    // Checks every rule against the replica as it is, so apply() can then change it in place.
    std::optional<ApplyError> check(const protocol::v5::Frame& frame, bool keyframe) const;
    bool holds(std::uint16_t slot) const { return slot < index_.size() && index_[slot] != 0; }
    void remove(std::uint16_t slot);

    // O(Frame) per apply and compact per client (the load generator holds thousands): the entries
    // unordered, and each slot's position + 1 (0 when absent), grown to the highest slot seen.
    std::vector<Visible> items_;
    std::vector<std::uint16_t> index_;
    std::vector<std::uint8_t> far_;
    std::uint32_t tick_ = 0;
    bool started_ = false;
};

}  // namespace hschool::sim::arena::v5
