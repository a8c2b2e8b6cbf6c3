#include "sim/arena/v5/replica.hpp"

#include <algorithm>

namespace hschool::sim::arena::v5 {
namespace {

namespace p5 = protocol::v5;

bool add(std::uint16_t& value, int delta) {
    const int next = int{value} + delta;
    if (next < 0 || next > 0xFFFF) return false;
    value = static_cast<std::uint16_t>(next);
    return true;
}

// Per-thread marks of the slots one Frame names, by section: a mark equal to the current epoch is
// set. Replaces sorting each section to find repeats, and copying the replica to stay atomic.
struct SectionMarks {
    std::vector<std::uint32_t> left, entered, updated;
    std::vector<std::uint32_t> enter_at;  // a marked enter's index in the Frame
    std::uint32_t epoch = 0;

    void next_epoch() {
        if (left.empty()) {
            left.assign(p5::kSlotLimit, 0), entered.assign(p5::kSlotLimit, 0), updated.assign(p5::kSlotLimit, 0);
            enter_at.assign(p5::kSlotLimit, 0);
        }
        if (++epoch == 0) {  // wrapped: forget every old mark
            std::fill(left.begin(), left.end(), 0), std::fill(entered.begin(), entered.end(), 0);
            std::fill(updated.begin(), updated.end(), 0);
            epoch = 1;
        }
    }
    // Marks a slot in one section; false when it is out of range or already marked there.
    bool mark(std::vector<std::uint32_t>& section, std::uint16_t slot, ApplyError& error) {
        if (slot >= p5::kSlotLimit) return error = ApplyError::SlotOutOfRange, false;
        if (section[slot] == epoch) return error = ApplyError::RepeatedSlot, false;
        section[slot] = epoch;
        return true;
    }
};

thread_local SectionMarks marks;

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

std::optional<ApplyError> Replica::check(const p5::Frame& frame, bool keyframe) const {
    marks.next_epoch();
    ApplyError error{};
    // Range and repeats first, section by section, then the rules that need the replica.
    for (std::uint16_t slot : frame.leaves)
        if (!marks.mark(marks.left, slot, error)) return error;
    for (std::size_t i = 0; i < frame.enters.size(); ++i) {
        if (!marks.mark(marks.entered, frame.enters[i].slot, error)) return error;
        marks.enter_at[frame.enters[i].slot] = static_cast<std::uint32_t>(i);
    }
    for (const auto& u : frame.updates)
        if (!marks.mark(marks.updated, u.slot, error)) return error;

    const auto held = [&](std::uint16_t slot) { return !keyframe && holds(slot); };
    const auto left = [&](std::uint16_t slot) { return marks.left[slot] == marks.epoch; };
    for (std::uint16_t slot : frame.leaves)
        if (!held(slot)) return ApplyError::UnknownSlot;
    for (const auto& e : frame.enters)
        if (held(e.slot) && !left(e.slot)) return ApplyError::SlotTaken;
    for (const auto& u : frame.updates) {
        const bool entered = marks.entered[u.slot] == marks.epoch;
        if (!entered && (!held(u.slot) || left(u.slot))) return ApplyError::UnknownSlot;
        if (u.form == p5::form::kFields) continue;
        Visible v;
        if (entered) {
            const auto& e = frame.enters[marks.enter_at[u.slot]];
            v.qx = e.qx, v.qy = e.qy;
        } else {
            v = items_[index_[u.slot] - 1u];
        }
        if (!add(v.qx, u.dx) || !add(v.qy, u.dy)) return ApplyError::QuantumOutOfRange;
    }
    return std::nullopt;
}

void Replica::remove(std::uint16_t slot) {
    const std::size_t at = index_[slot] - 1u;
    if (at + 1 != items_.size()) {
        items_[at] = items_.back();
        index_[items_[at].slot] = static_cast<std::uint16_t>(at + 1);
    }
    items_.pop_back();
    index_[slot] = 0;
}

std::optional<ApplyError> Replica::apply(const p5::Frame& frame) {
    const bool keyframe = (frame.flags & p5::frame_flags::kKeyframe) != 0;
    if (!started_ && (!keyframe || frame.base_tick != 0)) return ApplyError::FirstNotKeyframe;
    if (started_ && frame.base_tick != tick_) return ApplyError::BrokenChain;
    if (auto e = check(frame, keyframe)) return e;
    // Every rule holds, so the Frame applies whole.
    if (keyframe) {
        for (const auto& v : items_) index_[v.slot] = 0;
        items_.clear();
    }
    for (std::uint16_t slot : frame.leaves) remove(slot);
    for (const auto& e : frame.enters) {
        if (index_.size() <= e.slot) index_.resize(std::size_t{e.slot} + 1, 0);
        items_.push_back(Visible{e.slot, e.id, e.qx, e.qy, e.colour});
        index_[e.slot] = static_cast<std::uint16_t>(items_.size());
    }
    for (const auto& u : frame.updates) {
        Visible& v = items_[index_[u.slot] - 1u];
        if (u.form == p5::form::kFields) {
            if (u.fields & p5::fields::kQx) v.qx = u.qx;
            if (u.fields & p5::fields::kQy) v.qy = u.qy;
            if (u.fields & p5::fields::kColour) v.colour = u.colour;
        } else {
            add(v.qx, u.dx), add(v.qy, u.dy);
        }
    }
    if (frame.flags & p5::frame_flags::kFarGrid) far_ = frame.far;
    tick_ = frame.tick;
    started_ = true;
    return std::nullopt;
}

std::vector<Visible> Replica::entries() const {
    std::vector<Visible> out = items_;
    std::sort(out.begin(), out.end(), [](const Visible& a, const Visible& b) { return a.slot < b.slot; });
    return out;
}

}  // namespace hschool::sim::arena::v5
