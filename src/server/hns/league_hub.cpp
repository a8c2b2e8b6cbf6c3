#include "server/hns/league_hub.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <random>

#include "server/hns/league_state.hpp"

namespace hschool::server::hns {

namespace {

// "l" and the digits of an int64: anything longer is no league of ours.
constexpr std::size_t kMaxLeagueIdChars = 20;
// A drawn league seed keeps 31 bits, as a drawn match seed does (a non-negative int everywhere).
constexpr std::uint32_t kDrawnSeedMask = 0x7FFFFFFF;

const char* state_text(league::LeagueState s) {
    switch (s) {
        case league::LeagueState::Running: return "running";
        case league::LeagueState::Finished: return "finished";
        case league::LeagueState::Stopped: return "stopped";
    }
    return "running";
}

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
    if (!request.seed) {
        std::random_device device;
        request.seed = static_cast<std::int64_t>(device() & kDrawnSeedMask);
    }
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
    league->created_at_ms = unix_ms();
    leagues_[league->number] = league;
    metrics_.leagues_running(1);
    spdlog::info("event=hns_league_started id={} entrants={} planned={} variant={} seed={}", league->id, league->entrants.size(),
                 league->schedule.matches.size(), league->variant, league->seed);
    wake_.notify_all();
    return summary_locked(*league);
}

LeagueSummary LeagueHub::summary_locked(const League& league) const {
    LeagueSummary s;
    s.id = league.id;
    s.state = state_text(league.state);
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
    if (options_.access && options_.access(credential, "") == Permission::Missing) return permission_error(Permission::Missing, "league " + id);
    const auto number = league_number(id);
    std::lock_guard lock(mutex_);
    const auto it = number ? leagues_.find(*number) : leagues_.end();
    if (it == leagues_.end()) return HubError{404, "not-found", "no league " + id};
    const std::shared_ptr<League> league = it->second;
    if (options_.access) {
        if (const Permission may = options_.access(credential, league->owner_hash); may != Permission::Granted)
            return permission_error(may, "league " + id);
    }
    if (league->state == league::LeagueState::Running) {
        end_locked(*league, league::LeagueState::Stopped, "");
        spdlog::info("event=hns_league_stopped id={} played={}", id, league->results.size());
    } else {
        forget_locked(league);
        spdlog::info("event=hns_league_forgotten id={}", id);
    }
    return std::nullopt;
}

void LeagueHub::end_locked(League& league, league::LeagueState state, std::string error) {
    if (league.state != league::LeagueState::Running) return;
    league.state = state;
    league.halted = true;
    league.error = std::move(error);
    league.ended_at_ms = unix_ms();
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
        spdlog::info("event=hns_league_forgotten id={} reason=kept_limit", oldest->id);
        forget_locked(oldest);
    }
}

}  // namespace hschool::server::hns
