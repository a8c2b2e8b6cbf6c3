#include "server/hns/hub/match_supervisor.hpp"

#include "net/thread_role.hpp"
#include "util/log.hpp"
#include "util/stop_thread.hpp"

namespace hschool::server::hns {

void MatchSupervisor::start() {
    thread_ = std::thread([this] { supervise(); });
}

void MatchSupervisor::stop() {
    util::stop_thread(mutex_, wake_, stopping_, thread_);
    std::vector<std::shared_ptr<LiveMatch>> retired;
    {
        std::lock_guard lock(mutex_);
        retired.swap(retired_);
    }
    for (auto& match : retired) match->stop();
}

void MatchSupervisor::retire(std::shared_ptr<LiveMatch> match) {
    {
        std::lock_guard lock(mutex_);
        // The default match's successor starts once it is gone.
        if (match->is_default() && options_.renew_default) finished_.push_back(match->id());
        retired_.push_back(std::move(match));
    }
    wake_.notify_all();
}

void MatchSupervisor::on_match_finished(const std::string& id, FinishedMatch finished) {
    archive_.save(id, finished);
    logging::info("event=hns_match_finished id={} tick={} reason={}", id, finished.view.tick, finished.view.end_reason);
    if (finished_hook_) finished_hook_(id, finished);
    {
        std::lock_guard lock(mutex_);
        finished_.push_back(id);
    }
    wake_.notify_all();
}

void MatchSupervisor::on_player_failure(const std::string& id, int slot, const std::string& message) {
    logging::info("event=hns_lobby_timeout id={} missing_slot={}", id, slot);
    if (failure_hook_ && id == registry_.default_id()) failure_hook_(slot, message);
}

void MatchSupervisor::supervise() {
    net::take_thread_role("hns-supervisor", 0);
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [&] { return stopping_ || !finished_.empty() || !retired_.empty(); });
        if (stopping_) return;
        std::vector<std::string> ids;
        ids.swap(finished_);
        std::vector<std::shared_ptr<LiveMatch>> retired;
        retired.swap(retired_);
        lock.unlock();
        std::vector<std::shared_ptr<LiveMatch>> reaped;
        const bool renew = registry_.take_finished(ids, reaped) && options_.renew_default;
        for (auto& match : retired) match->stop();
        retired.clear();
        for (auto& match : reaped) match->stop();  // joins a thread that has already left its loop
        reaped.clear();
        archive_.keep_bounded();
        if (renew) renew_default_();
        lock.lock();
    }
}

}  // namespace hschool::server::hns
