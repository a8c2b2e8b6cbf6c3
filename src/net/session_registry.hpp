#pragma once
// Outboxes of every open WebSocket, so shutdown can say goodbye to each and wait for them to go.
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "net/outbox.hpp"
#include "net/ws_connection.hpp"

namespace hschool::net {

class SessionRegistry {
public:
    void add(ConnectionId id, std::weak_ptr<Outbox> outbox) {
        std::lock_guard lock(mutex_);
        sessions_.emplace(id, std::move(outbox));
    }
    void remove(ConnectionId id) {
        std::lock_guard lock(mutex_);
        sessions_.erase(id);
        if (sessions_.empty()) empty_.notify_all();
    }
    void close_all(CloseRequest request) {
        std::lock_guard lock(mutex_);
        for (auto& [id, weak] : sessions_)
            if (auto outbox = weak.lock()) outbox->request_close(request);
    }
    bool wait_until_empty(std::chrono::milliseconds timeout) {
        std::unique_lock lock(mutex_);
        return empty_.wait_for(lock, timeout, [this] { return sessions_.empty(); });
    }
    std::size_t size() const {
        std::lock_guard lock(mutex_);
        return sessions_.size();
    }

private:
    mutable std::mutex mutex_;
    std::condition_variable empty_;
    std::unordered_map<ConnectionId, std::weak_ptr<Outbox>> sessions_;
};

}  // namespace hschool::net
