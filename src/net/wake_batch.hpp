#pragma once
// Wakes asked for while a WakeBatch is open on the calling thread are collected and handed to
// their targets when it closes, once per target. A tick that fills thousands of outboxes then
// wakes each network thread once, with its whole list, after the loop has finished: no lock per
// connection, and no network thread woken early to compete with the loop for the cores.
#include <memory>
#include <vector>

namespace hschool::net {

class WakeTarget {
public:
    // The items deferred for this target during one batch, in the order they were deferred.
    virtual void wake_all(std::vector<std::shared_ptr<void>>& items) = 0;

protected:
    ~WakeTarget() = default;
};

class WakeBatch {
public:
    WakeBatch();
    ~WakeBatch();
    WakeBatch(const WakeBatch&) = delete;
    WakeBatch& operator=(const WakeBatch&) = delete;

    // When the calling thread is inside a batch, takes item for target and returns true;
    // otherwise leaves item alone and returns false (the caller wakes target itself).
    static bool defer(const std::shared_ptr<WakeTarget>& target, std::shared_ptr<void>& item);
};

}  // namespace hschool::net
