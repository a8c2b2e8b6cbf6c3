#include "sim/hns/replay_seek.hpp"

#include <algorithm>

namespace hschool::sim::hns {

Expected<std::shared_ptr<ReplayKeyframes>> ReplayKeyframes::create(const ReplayData& data) {
    auto stepper = ReplayStepper::create(data);
    if (!stepper) return Expected<std::shared_ptr<ReplayKeyframes>>::fail(stepper.error);
    return Expected<std::shared_ptr<ReplayKeyframes>>::ok(std::shared_ptr<ReplayKeyframes>(new ReplayKeyframes(std::move(*stepper))));
}

ReplayKeyframes::ReplayKeyframes(ReplayStepper first) { frames_.push_back(std::make_shared<const ReplayStepper>(std::move(first))); }

std::shared_ptr<const ReplayStepper> ReplayKeyframes::at_or_before(int tick) const {
    std::lock_guard lock(mutex_);
    auto after = std::upper_bound(frames_.begin(), frames_.end(), tick,
                                  [](int t, const std::shared_ptr<const ReplayStepper>& k) { return t < k->sim().tick_count(); });
    return *std::prev(after);
}

std::size_t ReplayKeyframes::size() const {
    std::lock_guard lock(mutex_);
    return frames_.size();
}

void ReplayKeyframes::offer(const ReplayStepper& stepper) {
    const int tick = stepper.sim().tick_count();
    if (tick % interval() != 0) return;
    auto held = [&] {
        return std::any_of(frames_.begin(), frames_.end(), [&](const auto& k) { return k->sim().tick_count() == tick; });
    };
    {
        std::lock_guard lock(mutex_);
        if (held()) return;
    }
    auto copy = std::make_shared<const ReplayStepper>(stepper);  // the copy (≈ 0.19 MB) is made outside the lock
    std::lock_guard lock(mutex_);
    if (tick % interval() != 0 || held()) return;
    frames_.insert(std::upper_bound(frames_.begin(), frames_.end(), tick,
                                    [](int t, const std::shared_ptr<const ReplayStepper>& k) { return t < k->sim().tick_count(); }),
                   std::move(copy));
    if (frames_.size() <= kMaxReplayKeyframes) return;
    // Too many: every other one goes, so they stay evenly spread over what has been stepped.
    const int wider = interval() * 2;
    interval_.store(wider, std::memory_order_relaxed);
    std::erase_if(frames_, [&](const auto& k) { return k->sim().tick_count() % wider != 0; });
}

Expected<ReplaySeeker> ReplaySeeker::create(const ReplayData& data) {
    auto keyframes = ReplayKeyframes::create(data);
    if (!keyframes) return Expected<ReplaySeeker>::fail(keyframes.error);
    return Expected<ReplaySeeker>::ok(ReplaySeeker(std::move(*keyframes)));
}

ReplayStepper::Status ReplaySeeker::step() {
    const auto status = current_.step();
    if (status == ReplayStepper::Status::Stepped || status == ReplayStepper::Status::Mismatch) keyframes_->offer(current_);
    return status;
}

void ReplaySeeker::jump_toward(int target) {
    const int now = current_.sim().tick_count();
    if (target == now) return;
    const auto best = keyframes_->at_or_before(target);
    if (target < now || best->sim().tick_count() > now) current_ = *best;
}

}  // namespace hschool::sim::hns
