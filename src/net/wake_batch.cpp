#include "net/wake_batch.hpp"

namespace hschool::net {

namespace {
struct Deferred {
    std::shared_ptr<WakeTarget> target;
    std::vector<std::shared_ptr<void>> items;
};
struct ThreadBatch {
    int depth = 0;
    std::vector<Deferred> targets;  // a handful: one per network thread
};
thread_local ThreadBatch t_batch;
}  // namespace

WakeBatch::WakeBatch() { ++t_batch.depth; }

WakeBatch::~WakeBatch() {
    if (--t_batch.depth > 0) return;
    std::vector<Deferred> targets;
    targets.swap(t_batch.targets);
    for (auto& deferred : targets) deferred.target->wake_all(deferred.items);
}

bool WakeBatch::defer(const std::shared_ptr<WakeTarget>& target, std::shared_ptr<void>& item) {
    if (t_batch.depth == 0) return false;
    for (auto& deferred : t_batch.targets) {
        if (deferred.target == target) {
            deferred.items.push_back(std::move(item));
            return true;
        }
    }
    t_batch.targets.push_back({target, {}});
    t_batch.targets.back().items.push_back(std::move(item));
    return true;
}

}  // namespace hschool::net
