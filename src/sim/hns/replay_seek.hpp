#pragma once
// Seeking in a replay in bounded time (issue 19): keyframes — copies of the stepper (sim, record
// cursors, verification state) every `interval` ticks — so going back one tick, seeking or
// restarting re-steps at most one interval, never from tick 0. Keyframes are only ever taken of
// ticks already stepped and verified, so re-stepping from one gives the same hashes and the same
// first mismatch. They are the same for every viewer of a replay, so its viewers share one set.
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "sim/hns/verify.hpp"

namespace hschool::sim::hns {

inline constexpr int kReplayKeyframeInterval = 256;  // ticks between keyframes, to begin with
// Keyframes one replay keeps for all its viewers (a sim copy is ≈ 0.19 MB: ≤ 1.5 MB per replay).
// A longer replay doubles the interval and drops every other keyframe, so memory stays bounded
// and a seek costs at most max(256, ticks / 4) steps.
inline constexpr std::size_t kMaxReplayKeyframes = 8;

// One replay's keyframes, shared by its viewers' threads. `data` must outlive it.
class ReplayKeyframes {
public:
    static Expected<std::shared_ptr<ReplayKeyframes>> create(const ReplayData& data);

    // The newest keyframe at or before `tick` (tick 0 always qualifies). Immutable once kept.
    std::shared_ptr<const ReplayStepper> at_or_before(int tick) const;
    // Keeps a copy of `stepper` when its tick is an interval boundary not yet held.
    void offer(const ReplayStepper& stepper);
    int interval() const { return interval_.load(std::memory_order_relaxed); }
    std::size_t size() const;

private:
    explicit ReplayKeyframes(ReplayStepper first);

    mutable std::mutex mutex_;
    std::vector<std::shared_ptr<const ReplayStepper>> frames_;  // ascending ticks, multiples of interval_
    std::atomic<int> interval_{kReplayKeyframeInterval};
};

// One viewer's cursor over a replay, jumping between the shared keyframes.
class ReplaySeeker {
public:
    explicit ReplaySeeker(std::shared_ptr<ReplayKeyframes> keyframes)
        : keyframes_(std::move(keyframes)), current_(*keyframes_->at_or_before(0)) {}
    // A seeker with keyframes of its own (tools and tests).
    static Expected<ReplaySeeker> create(const ReplayData& data);

    // One tick forward (offering the shared set a keyframe at each interval boundary).
    ReplayStepper::Status step();
    // Moves toward `target`: jumps to the newest keyframe at or before it when that is ahead of
    // where we are — or when the target is behind us — then steps at most `budget` ticks. True
    // once the sim is at the target (or can go no further). `on_step` sees every stepped tick's
    // status (a viewer notes the first mismatch from it).
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
    const ReplayKeyframes& keyframes() const { return *keyframes_; }

private:
    void jump_toward(int target);

    std::shared_ptr<ReplayKeyframes> keyframes_;
    ReplayStepper current_;
};

}  // namespace hschool::sim::hns
