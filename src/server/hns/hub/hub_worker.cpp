#include "server/hns/hub/hub_worker.hpp"

#include "net/thread_role.hpp"
#include "server/hns/contract/limits.hpp"
#include "server/hns/hub/hub_options.hpp"
#include "util/stop_thread.hpp"

namespace hschool::server::hns {

void HubWorker::start() {
    thread_ = std::thread([this] { work(); });
}

void HubWorker::stop() { util::stop_thread(mutex_, wake_, stopping_, thread_); }

bool HubWorker::submit(std::function<void()> job) {
    {
        std::lock_guard lock(mutex_);
        if (!stopping_ && jobs_.size() < kMaxPendingHubJobs) {
            jobs_.push_back(std::move(job));
            wake_.notify_all();
            return true;
        }
    }
    metrics_.refused("hub_jobs");
    return false;
}

void HubWorker::work() {
    // Building a big room's sim is background work: it yields to the network threads and the loop.
    net::take_thread_role("hns-worker", kWorkerNice);
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
        if (jobs_.empty()) return;
        auto job = std::move(jobs_.front());
        jobs_.pop_front();
        lock.unlock();
        job();
        lock.lock();
    }
}

}  // namespace hschool::server::hns
