#pragma once
// Many producers (network threads), one consumer (the loop): push under a lock, drain by swap.
#include <mutex>
#include <utility>
#include <vector>

namespace hschool::server {

template <class T>
class CommandQueue {
public:
    void push(T item) {
        std::lock_guard lock(mutex_);
        items_.push_back(std::move(item));
    }
    // Swaps the pending commands into out (cleared first), so the lock is held for a swap only.
    void drain(std::vector<T>& out) {
        out.clear();
        std::lock_guard lock(mutex_);
        std::swap(out, items_);
    }

private:
    std::mutex mutex_;
    std::vector<T> items_;
};

}  // namespace hschool::server
