#pragma once
// What happens when a match ends: a finished one is archived (then drop-in mode's hook runs) and
// reaped, a deleted one is stopped and joined — on the supervisor's own thread, never a request's;
// the default match gets its successor and the archive is kept bounded.
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "server/hns/hub/hub_options.hpp"
#include "server/hns/hub/match_archive.hpp"
#include "server/hns/hub/match_registry.hpp"
#include "server/hns/live/live_match.hpp"

namespace hschool::server::hns {

class MatchSupervisor final : public MatchListener {
public:
    using FinishedHook = std::function<void(const std::string& id, const FinishedMatch& finished)>;
    using FailureHook = std::function<void(int slot, const std::string& message)>;

    // `renew_default()`: starts the default match's successor.
    MatchSupervisor(const HubOptions& options, MatchRegistry& registry, MatchArchive& archive, std::function<void()> renew_default)
        : options_(options), registry_(registry), archive_(archive), renew_default_(std::move(renew_default)) {}
    ~MatchSupervisor() override { stop(); }

    // Called (on the finishing match's thread) after a match is archived; drop-in mode exits on it.
    void on_finished(FinishedHook hook) { finished_hook_ = std::move(hook); }
    // The default match's lobby timed out (spec §2.9's player failure report).
    void on_player_failure_hook(FailureHook hook) { failure_hook_ = std::move(hook); }

    void start();
    // Ends the thread, then stops the deleted matches it had not joined yet.
    void stop();
    // A running match deleted through the REST, asked to stop: joined on this thread.
    void retire(std::shared_ptr<LiveMatch> match);

    // MatchListener
    void on_match_finished(const std::string& id, FinishedMatch finished) override;
    void on_player_failure(const std::string& id, int slot, const std::string& message) override;

private:
    void supervise();

    const HubOptions& options_;
    MatchRegistry& registry_;
    MatchArchive& archive_;
    const std::function<void()> renew_default_;
    FinishedHook finished_hook_;
    FailureHook failure_hook_;

    std::mutex mutex_;  // guards everything below
    std::condition_variable wake_;
    std::vector<std::string> finished_;               // ids to reap
    std::vector<std::shared_ptr<LiveMatch>> retired_;  // asked to stop; joined here
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace hschool::server::hns
