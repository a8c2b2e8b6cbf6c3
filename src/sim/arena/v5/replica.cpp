#include "sim/arena/v5/replica.hpp"

#include <algorithm>

namespace hschool::sim::arena::v5 {
namespace {

namespace p5 = protocol::v5;

bool repeats(std::vector<std::uint16_t> slots) {
    std::sort(slots.begin(), slots.end());
    return std::adjacent_find(slots.begin(), slots.end()) != slots.end();
}

std::optional<ApplyError> check_sections(const p5::Frame& frame) {
    std::vector<std::uint16_t> slots;
    auto section = [&](auto&& collect) -> std::optional<ApplyError> {
        slots.clear();
        collect();
        for (std::uint16_t s : slots)
            if (s >= p5::kSlotLimit) return ApplyError::SlotOutOfRange;
        if (repeats(slots)) return ApplyError::RepeatedSlot;
        return std::nullopt;
    };
    if (auto e = section([&] { slots = frame.leaves; })) return e;
    if (auto e = section([&] { for (const auto& x : frame.enters) slots.push_back(x.slot); })) return e;
    return section([&] { for (const auto& x : frame.updates) slots.push_back(x.slot); });
}

bool add(std::uint16_t& value, int delta) {
    const int next = int{value} + delta;
    if (next < 0 || next > 0xFFFF) return false;
    value = static_cast<std::uint16_t>(next);
    return true;
}

}  // namespace

const char* describe(ApplyError error) {
    switch (error) {
        case ApplyError::FirstNotKeyframe: return "the first Frame is not a keyframe with baseTick 0";
        case ApplyError::BrokenChain: return "baseTick is not the previous Frame's tick";
        case ApplyError::UnknownSlot: return "a leave or update names a slot the replica does not hold";
        case ApplyError::SlotTaken: return "an enter names a slot the replica holds";
        case ApplyError::SlotOutOfRange: return "a slot at or above 16384";
        case ApplyError::RepeatedSlot: return "a slot twice in one section";
        case ApplyError::QuantumOutOfRange: return "a delta leaves 0..65535";
    }
    return "unknown apply error";
}

std::optional<ApplyError> Replica::apply(const p5::Frame& frame) {
    const bool keyframe = (frame.flags & p5::frame_flags::kKeyframe) != 0;
    if (!started_ && (!keyframe || frame.base_tick != 0)) return ApplyError::FirstNotKeyframe;
    if (started_ && frame.base_tick != tick_) return ApplyError::BrokenChain;
    if (auto e = check_sections(frame)) return e;
    // Worked on a copy, so a Frame that breaks a rule half-way changes nothing.
    auto next = keyframe ? decltype(slots_){} : slots_;
    for (std::uint16_t slot : frame.leaves)
        if (next.erase(slot) == 0) return ApplyError::UnknownSlot;
    for (const auto& e : frame.enters)
        if (!next.emplace(e.slot, Visible{e.slot, e.id, e.qx, e.qy, e.colour}).second) return ApplyError::SlotTaken;
    for (const auto& u : frame.updates) {
        const auto found = next.find(u.slot);
        if (found == next.end()) return ApplyError::UnknownSlot;
        Visible& v = found->second;
        if (u.form == p5::form::kFields) {
            if (u.fields & p5::fields::kQx) v.qx = u.qx;
            if (u.fields & p5::fields::kQy) v.qy = u.qy;
            if (u.fields & p5::fields::kColour) v.colour = u.colour;
        } else if (!add(v.qx, u.dx) || !add(v.qy, u.dy)) {
            return ApplyError::QuantumOutOfRange;
        }
    }
    slots_ = std::move(next);
    if (frame.flags & p5::frame_flags::kFarGrid) far_ = frame.far;
    tick_ = frame.tick;
    started_ = true;
    return std::nullopt;
}

std::vector<Visible> Replica::entries() const {
    std::vector<Visible> out;
    out.reserve(slots_.size());
    for (const auto& [slot, v] : slots_) out.push_back(v);
    std::sort(out.begin(), out.end(), [](const Visible& a, const Visible& b) { return a.slot < b.slot; });
    return out;
}

}  // namespace hschool::sim::arena::v5
