#pragma once
// Seeking in a replay in bounded time (issue 19): a ReplayStepper that keeps keyframes — a copy of
// the stepper (sim, record cursors, verification state) every `interval` ticks it has passed — so
// going back one tick, seeking or restarting re-steps at most one interval, never from tick 0.
// Keyframes are only ever taken of ticks already stepped and verified, so re-stepping from one
// reproduces the same hashes and the same first mismatch.
#include <cstddef>
#include <vector>

#include "sim/hns/verify.hpp"

namespace hschool::sim::hns {

inline constexpr int kReplayKeyframeInterval = 256;  // ticks between keyframes, to begin with
// Keyframes one seeker keeps (a sim copy is ≈ 0.65 MB: ≤ 10.4 MB per viewer). A longer replay
// doubles the interval and drops every other keyframe, so memory stays bounded and a seek costs
// at most max(256, ticks / 8) steps.
inline constexpr std::size_t kMaxReplayKeyframes = 16;

class ReplaySeeker {
public:
    static Expected<ReplaySeeker> create(const ReplayData& data);

    // One tick forward (a keyframe is taken at each interval boundary passed for the first time).
    ReplayStepper::Status step();
    // Moves toward `target` (clamped to the replay): jumps to the newest keyframe at or before it
    // when that is behind the target and ahead of where we are — or when the target is behind us —
    // then steps at most `budget` ticks. True once the sim is at the target (or can go no further).
    // `on_step` sees every stepped tick's status (a viewer notes the first mismatch from it).
    template <class OnStep>
    bool seek(int target, int budget, OnStep&& on_step) {
        jump_toward(target);
        for (int i = 0; i < budget && current_.sim().tick_count() < target; ++i) {
            const auto status = step();
            on_step(status);
            if (status != ReplayStepper::Status::Stepped && status != ReplayStepper::Status::Mismatch) return true;
        }
        return current_.sim().tick_count() >= target;
    }

    const ReplayStepper& stepper() const { return current_; }
    const Sim& sim() const { return current_.sim(); }
    int final_tick() const { return current_.final_tick(); }
    bool done() const { return current_.done(); }
    int interval() const { return interval_; }
    std::size_t keyframes() const { return keyframes_.size(); }

private:
    explicit ReplaySeeker(ReplayStepper first) : current_(first) { keyframes_.push_back(std::move(first)); }
    void jump_toward(int target);
    void keep_keyframe();

    ReplayStepper current_;
    std::vector<ReplayStepper> keyframes_;  // ascending ticks, multiples of interval_, tick 0 first
    int interval_ = kReplayKeyframeInterval;
};

}  // namespace hschool::sim::hns
