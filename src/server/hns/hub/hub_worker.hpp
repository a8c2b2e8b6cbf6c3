#pragma once
// The hub's one low-priority thread for slow jobs that must not run on a network thread: a big
// room's sim built for a create, a replay (up to 64 MiB) read for a /replay viewer or a download.
// Its queue is bounded: a full one refuses (503, 1013) instead of growing.
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "server/hns/contract/hns_metrics.hpp"

namespace hschool::server::hns {

class HubWorker {
public:
    explicit HubWorker(HnsMetrics& metrics) : metrics_(metrics) {}
    ~HubWorker() { stop(); }
    HubWorker(const HubWorker&) = delete;
    HubWorker& operator=(const HubWorker&) = delete;

    void start();
    // Runs what is still queued (a create then answers 503: the hub is stopping), then ends.
    void stop();
    // False when the queue is full or the worker is stopping (counted as refused "hub_jobs").
    bool submit(std::function<void()> job);

private:
    void work();

    HnsMetrics& metrics_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> jobs_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace hschool::server::hns
