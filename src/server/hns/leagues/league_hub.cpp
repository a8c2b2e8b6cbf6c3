// Leagues on the server: the REST's side (budgets, creation, listing, stopping, forgetting) and
// the league threads (issue 33). Each thread plays one match at a time, taking them round robin
// across the running leagues, archives it, refits a league's table at most once a second (and once
// more when it ends), and removes the archived matches of forgotten leagues. Low priority
// throughout: a live match, the network threads and the loop always come first.
#include "server/hns/leagues/league_hub.hpp"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>

#include "league/table_json.hpp"
#include "net/thread_role.hpp"
#include "server/hns/leagues/league_match.hpp"
#include "server/hns/leagues/league_table.hpp"
#include "sim/hns/game_version.hpp"
#include "store/hns_archive.hpp"
#include "util/log.hpp"
#include "util/wall_clock.hpp"

namespace hschool::server::hns {

// One league's state, this file's alone: every field is guarded by LeagueHub::mutex_ unless it
// says otherwise.
struct LeagueHub::League {
    // Set at creation, never changed after: a league thread reads them without the lock.
    std::int64_t number = 0;
    std::string id;  // "l<number>"
    std::vector<league::Entrant> entrants;
    league::Schedule schedule;
    std::string variant;
    std::int64_t seed = 0;
    std::string owner_hash, address;
    std::int64_t created_at_ms = 0;
    std::map<std::string, std::string> prompts;  // prompt entrants' text: sent to the model only, never shown or logged

    // Set (under the lock) when it stops or the server does; read without it by a match's prompt seats.
    std::atomic<bool> halted{false};

    league::LeagueState state = league::LeagueState::Running;
    std::string error;  // why it stopped by itself
    std::int64_t ended_at_ms = 0;
    std::shared_ptr<const LeagueRunner> runner;  // made by a league thread before its first match (it reads the rooms)
    std::size_t next = 0;  // the next schedule index to hand out
    int in_flight = 0;     // matches being played or archived
    std::vector<league::MatchResult> results;  // replay: the archived match's id
    std::map<std::string, PromptSeatTally> prompt_turns;  // each prompt entrant's turns, summed over its matches
    bool forgotten = false;  // deleted or pushed out: matches still in flight remove their own replays

    // The table, refitted by a league thread: `dirty` once results or the state changed since.
    bool dirty = true;
    std::uint64_t fits_started = 0, fit_shown = 0;  // a slower, older fit never replaces a newer one
    std::chrono::steady_clock::time_point fitted_at{};
    std::shared_ptr<const std::string> table;
};

struct LeagueHub::Job {
    std::shared_ptr<League> league;
    league::ScheduledMatch match;
};

namespace {

// "l" and the digits of an int64: anything longer is no league of ours.
constexpr std::size_t kMaxLeagueIdChars = 20;

// "l<digits>" to its number; nothing for any other text (no lookup, no allocation beyond this).
std::optional<std::int64_t> league_number(std::string_view id) {
    if (id.size() < 2 || id.size() > kMaxLeagueIdChars || id[0] != 'l') return std::nullopt;
    std::int64_t n = 0;
    const auto* end = id.data() + id.size();
    const auto [ptr, ec] = std::from_chars(id.data() + 1, end, n);
    if (ec != std::errc() || ptr != end || n < 1) return std::nullopt;
    return n;
}

}  // namespace

LeagueHub::LeagueHub(LeagueOptions options, store::HnsArchive* archive, NewMatchId new_match_id, HnsMetrics& metrics)
    : options_(std::move(options)), archive_(archive), new_match_id_(std::move(new_match_id)), metrics_(metrics) {
    options_.jobs = std::clamp(options_.jobs, 1, kMaxLeagueJobs);
}

LeagueHub::~LeagueHub() { stop(); }

void LeagueHub::start() {
    std::lock_guard lock(mutex_);
    if (!threads_.empty() || stopping_ || options_.disabled) return;
    for (int i = 0; i < options_.jobs; ++i) threads_.emplace_back([this] { work(); });
}

void LeagueHub::stop() {
    std::vector<std::thread> threads;
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        for (const auto& [number, l] : leagues_) l->halted = true;
        threads.swap(threads_);
    }
    wake_.notify_all();
    for (auto& t : threads) t.join();
}

LeagueRequestLimits LeagueHub::limits() const {
    LeagueRequestLimits limits{options_.max_matches, std::nullopt};
    if (options_.llm.transport != LlmTransport::None) limits.max_model_matches = options_.max_model_matches;
    return limits;
}

std::size_t LeagueHub::running() const {
    std::lock_guard lock(mutex_);
    return static_cast<std::size_t>(std::count_if(leagues_.begin(), leagues_.end(), [](const auto& kv) {
        return kv.second->state == league::LeagueState::Running;
    }));
}

std::variant<LeagueSummary, HubError> LeagueHub::create(LeagueRequest request, std::string owner_hash, const std::string& address) {
    if (options_.disabled) return *options_.disabled;
    if (request.planned() > options_.max_matches)  // the parser checks it too, with the same limit
        return HubError{400, "too-many-league-matches", "matches: over this server's " + std::to_string(options_.max_matches) + " a league"};
    if (const auto most = limits().max_model_matches; most && request.prompt_matches() > *most)
        return HubError{400, "too-many-model-matches", "matches: over this server's " + std::to_string(*most) + " with a prompt entrant a league"};
    if (request.entrants.size() > league::kMaxEntrants) return HubError{400, "invalid-field", "entrants: too many"};
    for (const auto& e : request.entrants)
        if (e.kind.family == league::KindFamily::Command) return HubError{400, "command-refused", "a server never runs a command"};
        else if (e.kind.family == league::KindFamily::Numeric)
            return HubError{400, "numeric-refused", "a server never calls a policy URL a client names"};
    if (!request.seed) request.seed = draw_seed();  // 31 bits, as a match's
    auto schedule = league::make_schedule(request.entrants, request.matches, *request.seed);
    if (!schedule) return HubError{400, "invalid-field", schedule.error()};

    std::lock_guard lock(mutex_);
    if (stopping_) return HubError{503, "stopping", "the server is stopping", 1};
    std::size_t total = 0, mine = 0;
    for (const auto& [number, l] : leagues_) {
        if (l->state != league::LeagueState::Running) continue;
        ++total;
        mine += !address.empty() && l->address == address;
    }
    if (options_.max_running_per_address > 0 && !address.empty() && mine >= options_.max_running_per_address) {
        metrics_.refused("leagues_per_address");
        return HubError{429, "too-many-leagues-per-address",
                        "this address already runs " + std::to_string(mine) + " leagues; delete one or wait for one to finish",
                        kLeagueRetryAfterSeconds};
    }
    if (total >= options_.max_running) {
        metrics_.refused("leagues_total");
        return HubError{503, "too-many-leagues", "at most " + std::to_string(options_.max_running) + " leagues run at once; try again later",
                        kLeagueRetryAfterSeconds};
    }
    auto league = std::make_shared<League>();
    league->number = next_number_++;
    league->id = "l" + std::to_string(league->number);
    league->entrants = std::move(request.entrants);
    league->prompts = std::move(request.prompts);
    league->schedule = std::move(*schedule);
    league->variant = std::move(request.variant);
    league->seed = *request.seed;
    league->owner_hash = std::move(owner_hash);
    league->address = address;
    league->created_at_ms = util::unix_ms();
    leagues_[league->number] = league;
    metrics_.leagues_running(1);
    logging::info("event=hns_league_started id={} entrants={} planned={} variant={} seed={}", league->id, league->entrants.size(),
                 league->schedule.matches.size(), league->variant, league->seed);
    wake_.notify_all();
    return summary_locked(*league);
}

LeagueSummary LeagueHub::summary_locked(const League& league) const {
    LeagueSummary s;
    s.id = league.id;
    s.state = league::league_state_text(league.state);
    s.variant = league.variant;
    s.error = league.error;
    s.played = static_cast<int>(league.results.size());
    s.planned = static_cast<int>(league.schedule.matches.size());
    s.matches_per_pairing = league.schedule.matchesPerPairing;
    s.seed = league.seed;
    s.created_at_ms = league.created_at_ms;
    s.ended_at_ms = league.ended_at_ms;
    s.entrants = league.entrants;
    s.model = options_.llm.transport != LlmTransport::None;
    s.table = league.table;
    return s;
}

std::vector<LeagueSummary> LeagueHub::list() const {
    std::lock_guard lock(mutex_);
    std::vector<LeagueSummary> out;
    for (auto it = leagues_.rbegin(); it != leagues_.rend(); ++it) out.push_back(summary_locked(*it->second));
    return out;
}

std::optional<LeagueSummary> LeagueHub::get(const std::string& id) const {
    const auto number = league_number(id);
    if (!number) return std::nullopt;
    std::lock_guard lock(mutex_);
    const auto it = leagues_.find(*number);
    if (it == leagues_.end()) return std::nullopt;
    return summary_locked(*it->second);
}

std::optional<HubError> LeagueHub::remove(const std::string& id, std::string_view credential) {
    // Before the lookup, as for matches: a stranger cannot probe which leagues exist.
    if (permission_of(options_.access, credential, "") == Permission::Missing) return permission_error(Permission::Missing, "league " + id);
    const auto number = league_number(id);
    std::lock_guard lock(mutex_);
    const auto it = number ? leagues_.find(*number) : leagues_.end();
    if (it == leagues_.end()) return HubError{404, "not-found", "no league " + id};
    const std::shared_ptr<League> league = it->second;
    if (const Permission may = permission_of(options_.access, credential, league->owner_hash); may != Permission::Granted)
        return permission_error(may, "league " + id);
    if (league->state == league::LeagueState::Running) {
        end_locked(*league, league::LeagueState::Stopped, "");
        logging::info("event=hns_league_stopped id={} played={}", id, league->results.size());
    } else {
        forget_locked(league);
        logging::info("event=hns_league_forgotten id={}", id);
    }
    return std::nullopt;
}

void LeagueHub::end_locked(League& league, league::LeagueState state, std::string error) {
    if (league.state != league::LeagueState::Running) return;
    league.state = state;
    league.halted = true;
    league.error = std::move(error);
    league.ended_at_ms = util::unix_ms();
    league.dirty = true;
    metrics_.leagues_running(-1);
    keep_bounded_locked();
    wake_.notify_all();
}

void LeagueHub::forget_locked(const std::shared_ptr<League>& league) {
    leagues_.erase(league->number);
    league->forgotten = true;
    for (const auto& r : league->results)
        if (!r.replay.empty()) purges_.push_back(r.replay);
    wake_.notify_all();
}

void LeagueHub::keep_bounded_locked() {
    for (;;) {
        std::shared_ptr<League> oldest;
        std::size_t ended = 0;
        for (const auto& [number, l] : leagues_) {
            if (l->state == league::LeagueState::Running) continue;
            ++ended;
            if (!oldest || l->ended_at_ms < oldest->ended_at_ms) oldest = l;
        }
        if (ended <= options_.max_kept || !oldest) return;
        logging::info("event=hns_league_forgotten id={} reason=kept_limit", oldest->id);
        forget_locked(oldest);
    }
}

// ---- the league threads ----
bool LeagueHub::has_work_locked() const {
    if (!purges_.empty() || table_due_locked(std::chrono::steady_clock::now())) return true;
    for (const auto& [number, l] : leagues_)
        if (l->state == league::LeagueState::Running && l->next < l->schedule.matches.size()) return true;
    return false;
}

std::shared_ptr<LeagueHub::League> LeagueHub::table_due_locked(std::chrono::steady_clock::time_point now) const {
    for (const auto& [number, l] : leagues_) {
        if (!l->dirty) continue;
        const bool first = l->table == nullptr;
        const bool final = l->state != league::LeagueState::Running && l->in_flight == 0;
        const bool stale = l->state == league::LeagueState::Running && now - l->fitted_at >= kLeagueTableRefresh;
        if (first || final || stale) return l;
    }
    return nullptr;
}

std::optional<LeagueHub::Job> LeagueHub::next_match_locked() {
    if (leagues_.empty()) return std::nullopt;
    // Round robin: the first league after the last one served that has a match to hand out.
    auto it = leagues_.upper_bound(last_served_);
    for (std::size_t seen = 0; seen < leagues_.size(); ++seen, ++it) {
        if (it == leagues_.end()) it = leagues_.begin();
        League& l = *it->second;
        if (l.state != league::LeagueState::Running || l.next >= l.schedule.matches.size()) continue;
        last_served_ = l.number;
        ++l.in_flight;
        return Job{it->second, l.schedule.matches[l.next++]};
    }
    return std::nullopt;
}

void LeagueHub::refresh_table(std::unique_lock<std::mutex>& lock, const std::shared_ptr<League>& league) {
    league->dirty = false;
    const std::uint64_t fit = ++league->fits_started;
    LeagueTableInput input;
    input.entrants = league->entrants;
    input.results = league->results;
    input.info.variant = league->variant;
    input.info.gameVersion = std::string(sim::hns::game_version_text(sim::hns::kCurrentGameVersion));
    input.info.seed = league->seed;
    input.info.matchesPerPairing = league->schedule.matchesPerPairing;
    input.info.planned = static_cast<int>(league->schedule.matches.size());
    input.info.state = league->state;
    input.prompt_turns = league->prompt_turns;
    input.model = options_.llm.transport != LlmTransport::None;
    lock.unlock();
    std::shared_ptr<const std::string> text = fit_league_table(league->id, std::move(input));
    lock.lock();
    league->fitted_at = std::chrono::steady_clock::now();
    if (text && fit > league->fit_shown) {
        league->fit_shown = fit;
        league->table = std::move(text);
    }
}

void LeagueHub::play(std::unique_lock<std::mutex>& lock, Job job) {
    League& league = *job.league;
    std::shared_ptr<const LeagueRunner> runner = league.runner;
    lock.unlock();
    // Entrants, variant and prompts never change after creation: read without the lock.
    PlayedLeagueMatch played = play_league_match({league.entrants, league.variant, league.prompts, league.halted}, std::move(runner),
                                                 options_.llm, job.match);
    lock.lock();
    if (played.runner && !league.runner) league.runner = played.runner;
    if (stopping_ || league.state != league::LeagueState::Running) {
        // A stop hands out nothing more and keeps nothing that was still being played.
        --league.in_flight;
        league.dirty = true;
        wake_.notify_all();
        return;
    }
    if (!played.outcome) {
        --league.in_flight;
        logging::error("event=hns_league_failed id={} error=\"{}\"", league.id, played.outcome.error);
        end_locked(league, league::LeagueState::Stopped, played.outcome.error);
        return;
    }
    const LeagueRunner::Outcome& outcome = *played.outcome;
    lock.unlock();
    const std::string id = new_match_id_();
    std::string save_error;
    if (archive_) {
        if (auto archived = archive_league_match(*archive_, id, league.variant, league.owner_hash, *played.runner, job.match, outcome,
                                                 options_.max_archived_matches);
            !archived)
            save_error = archived.error;
    }
    lock.lock();
    --league.in_flight;
    if (!save_error.empty()) {
        logging::error("event=hns_league_archive_failed id={} match={} error=\"{}\"", league.id, id, save_error);
        end_locked(league, league::LeagueState::Stopped, "archive: " + save_error);
        return;
    }
    league::MatchResult result;
    result.id = job.match.id;
    result.seed = job.match.seed;
    result.variant = league.variant;
    result.gameVersion = outcome.played.gameVersion;
    result.seats = job.match.seats;
    result.scores = outcome.played.scores;
    result.replay = id;
    result.programs = outcome.played.programs;  // how each prompt seat's turns went, as hschool-hns league notes it
    for (int slot = 0; slot < league::kSeats; ++slot) {
        if (!played.runner->prompt_seat(job.match.seats[slot])) continue;
        const PromptSeatTally& seat = outcome.prompt[static_cast<std::size_t>(slot)];
        PromptSeatTally& sum = league.prompt_turns[job.match.seats[slot]];
        sum.model_turns += seat.model_turns;
        sum.fallback_turns += seat.fallback_turns;
    }
    league.results.push_back(std::move(result));
    league.dirty = true;
    metrics_.league_match_played();
    if (league.forgotten) purges_.push_back(id);  // forgotten while it was being archived
    if (league.state == league::LeagueState::Running && league.next >= league.schedule.matches.size() && league.in_flight == 0) {
        logging::info("event=hns_league_finished id={} played={}", league.id, league.results.size());
        end_locked(league, league::LeagueState::Finished, "");
    }
    wake_.notify_all();
}

void LeagueHub::purge(std::unique_lock<std::mutex>& lock) {
    std::vector<std::string> ids;
    ids.swap(purges_);
    lock.unlock();
    for (const auto& id : ids) {
        if (!archive_) break;
        if (auto removed = archive_->remove(id); !removed)
            logging::error("event=hns_league_purge_failed match={} error=\"{}\"", id, removed.error().message);
    }
    lock.lock();
}

void LeagueHub::work() {
    if (options_.idle_scheduling) {
        // The calling thread only (pid 0 is the caller's tid on Linux); the nice below stays if refused.
        // Before the thread takes its name, so that one seen by its name already has its policy.
        const sched_param param{};
        if (sched_setscheduler(0, SCHED_IDLE, &param) != 0)
            logging::warn("event=thread_priority_unchanged thread=hns-league policy=idle error=\"{}\"", std::strerror(errno));
    }
    net::take_thread_role("hns-league", kLeagueNice);
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        if (!purges_.empty()) {
            purge(lock);
        } else if (auto league = table_due_locked(std::chrono::steady_clock::now())) {
            refresh_table(lock, league);
        } else if (auto job = next_match_locked()) {
            play(lock, std::move(*job));
        } else {
            // Woken by a new league, a stop or a purge; the timeout brings a running league's next refit.
            wake_.wait_for(lock, kLeagueTableRefresh, [&] { return stopping_ || has_work_locked(); });
        }
    }
}

}  // namespace hschool::server::hns
