#include "sim/hns/replay_seek.hpp"

#include <algorithm>

namespace hschool::sim::hns {

Expected<ReplaySeeker> ReplaySeeker::create(const ReplayData& data) {
    auto stepper = ReplayStepper::create(data);
    if (!stepper) return Expected<ReplaySeeker>::fail(stepper.error);
    return Expected<ReplaySeeker>::ok(ReplaySeeker(std::move(*stepper)));
}

ReplayStepper::Status ReplaySeeker::step() {
    const auto status = current_.step();
    if (status == ReplayStepper::Status::Stepped || status == ReplayStepper::Status::Mismatch) keep_keyframe();
    return status;
}

void ReplaySeeker::keep_keyframe() {
    const int tick = current_.sim().tick_count();
    if (tick % interval_ != 0 || tick <= keyframes_.back().sim().tick_count()) return;
    keyframes_.push_back(current_);
    if (keyframes_.size() <= kMaxReplayKeyframes) return;
    // Too many: every other one goes, so they stay evenly spread over what has been stepped.
    interval_ *= 2;
    std::erase_if(keyframes_, [&](const ReplayStepper& k) { return k.sim().tick_count() % interval_ != 0; });
}

void ReplaySeeker::jump_toward(int target) {
    const int now = current_.sim().tick_count();
    if (target == now) return;
    // The newest keyframe at or before the target (tick 0 always qualifies).
    auto after = std::upper_bound(keyframes_.begin(), keyframes_.end(), target,
                                  [](int t, const ReplayStepper& k) { return t < k.sim().tick_count(); });
    const ReplayStepper& best = *std::prev(after);
    if (target < now || best.sim().tick_count() > now) current_ = best;
}

}  // namespace hschool::sim::hns
