#pragma once
// Leagues on the server (issue 33): POST /api/hns/leagues starts one, its matches are played on
// the leagues' own low-priority threads (--hns-league-jobs, one by default), one match at a time
// each, interleaved across the running leagues, and archived as kind "league" so their replays are
// served like any finished match's and never push ordinary matches out of the archive. Leagues live
// in memory: a restart forgets them (their archived matches stay, bounded, until pruned).
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "league/schedule.hpp"
#include "league/table.hpp"
#include "server/hns/contract/hns_metrics.hpp"
#include "server/hns/contract/match_request.hpp"
#include "server/hns/contract/permission.hpp"
#include "server/hns/leagues/league_options.hpp"
#include "server/hns/leagues/league_request.hpp"

namespace hschool::store {
class HnsArchive;
}

namespace hschool::server::hns {

class LeagueRunner;

// What the REST shows of a league.
struct LeagueSummary {
    std::string id, state, variant, error;  // error: why it stopped by itself ("" otherwise)
    int played = 0, planned = 0, matches_per_pairing = 0;
    std::int64_t seed = 0;
    std::int64_t created_at_ms = 0, ended_at_ms = 0;  // ended: 0 while running
    std::vector<league::Entrant> entrants;
    bool model = false;  // prompt entrants ask a model (else they play burrow, no_credentials)
    std::shared_ptr<const std::string> table;  // league.json's object, serialized; null before the first fit
};

class LeagueHub {
public:
    using NewMatchId = std::function<std::string()>;

    LeagueHub(LeagueOptions options, store::HnsArchive* archive, NewMatchId new_match_id, HnsMetrics& metrics);
    ~LeagueHub();
    LeagueHub(const LeagueHub&) = delete;
    LeagueHub& operator=(const LeagueHub&) = delete;

    void start();  // the league threads
    // A match being played finishes first (its prompt seats stop asking: it ends in well under a
    // second); nothing more is archived.
    void stop();

    LeagueRequestLimits limits() const;
    // The budgets answer at once (429/503 with Retry-After); nothing slow runs here.
    std::variant<LeagueSummary, HubError> create(LeagueRequest request, std::string owner_hash, const std::string& address);
    std::vector<LeagueSummary> list() const;  // newest first
    std::optional<LeagueSummary> get(const std::string& id) const;
    // A running league stops (its table stays); an ended one is forgotten (its archived matches go).
    std::optional<HubError> remove(const std::string& id, std::string_view credential);
    std::size_t running() const;

private:
    struct League;
    struct Job;

    LeagueSummary summary_locked(const League& league) const;
    void end_locked(League& league, league::LeagueState state, std::string error);
    void forget_locked(const std::shared_ptr<League>& league);
    void keep_bounded_locked();
    bool has_work_locked() const;
    std::shared_ptr<League> table_due_locked(std::chrono::steady_clock::time_point now) const;
    std::optional<Job> next_match_locked();
    void refresh_table(std::unique_lock<std::mutex>& lock, const std::shared_ptr<League>& league);
    void play(std::unique_lock<std::mutex>& lock, Job job);
    void purge(std::unique_lock<std::mutex>& lock);
    void work();

    LeagueOptions options_;
    store::HnsArchive* archive_;
    NewMatchId new_match_id_;
    HnsMetrics& metrics_;

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::map<std::int64_t, std::shared_ptr<League>> leagues_;  // by number: "l<number>"
    std::vector<std::string> purges_;  // archived matches of forgotten leagues, for a league thread to remove
    std::int64_t next_number_ = 1;
    std::int64_t last_served_ = 0;  // the league whose match was handed out last (round robin)
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace hschool::server::hns
