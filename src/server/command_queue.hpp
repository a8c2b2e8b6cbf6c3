#pragma once
// Many producers (network threads), one consumer (the loop): push under a lock, drain by swap.
#include <cstddef>
#include <mutex>
#include <utility>
#include <vector>

namespace hschool::server {

template <class T>
class CommandQueue {
public:
    explicit CommandQueue(std::size_t bound) : bound_(bound) {}

    // Always queued: what must never be lost (a Disconnect, an HTTP task that answers).
    void push(T item) {
        std::lock_guard lock(mutex_);
        items_.push_back(std::move(item));
    }
    // Queued only while fewer than the bound wait: clients' commands, so a flood cannot grow memory.
    bool try_push(T item) {
        std::lock_guard lock(mutex_);
        if (items_.size() >= bound_) return false;
        items_.push_back(std::move(item));
        return true;
    }
    // Swaps the pending commands into out (cleared first), so the lock is held for a swap only.
    void drain(std::vector<T>& out) {
        out.clear();
        std::lock_guard lock(mutex_);
        std::swap(out, items_);
    }

private:
    const std::size_t bound_;
    std::mutex mutex_;
    std::vector<T> items_;
};

}  // namespace hschool::server
