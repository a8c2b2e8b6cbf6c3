// The league threads (issue 33): each plays one match at a time, taking them round robin across
// the running leagues, archives it, refits a league's table at most once a second (and once more
// when it ends), and removes the archived matches of forgotten leagues. Low priority throughout:
// a live match, the network threads and the loop always come first.
#include <sched.h>
#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstring>

#include <boost/json.hpp>

#include "league/table_json.hpp"
#include "net/thread_role.hpp"
#include "server/hns/leagues/league_hub.hpp"
#include "server/hns/leagues/league_state.hpp"
#include "sim/hns/game_version.hpp"
#include "server/hns/contract/decisions.hpp"
#include "store/hns_archive.hpp"
#include "util/wall_clock.hpp"

namespace hschool::server::hns {

namespace json = boost::json;

namespace {

// league.json's object, with each prompt entrant's kind as the client gave it and how its turns
// went: modelTurns and fallbackTurns over its matches, and "fallback" when no model is configured.
std::shared_ptr<const std::string> table_text(league::LeagueTable table, const std::vector<league::Entrant>& entrants,
                                              const std::map<std::string, PromptSeatTally>& turns, bool model) {
    for (std::size_t i = 0; i < table.entrants.size() && i < entrants.size(); ++i)
        table.entrants[i].kind = entrant_kind_text(entrants[i]);
    json::value value = league::table_json(table);
    auto& rows = value.as_object()["entrants"].as_array();
    for (std::size_t i = 0; i < rows.size() && i < entrants.size(); ++i) {
        if (!is_prompt_entrant(entrants[i])) continue;
        auto& row = rows[i].as_object();
        const auto it = turns.find(entrants[i].name);
        row["modelTurns"] = it == turns.end() ? 0 : it->second.model_turns;
        row["fallbackTurns"] = it == turns.end() ? 0 : it->second.fallback_turns;
        if (!model) row["fallback"] = kCauseNoCredentials;
    }
    return std::make_shared<const std::string>(json::serialize(value));
}

}  // namespace

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
    std::vector<league::MatchResult> results = league->results;
    league::LeagueInfo info;
    info.variant = league->variant;
    info.gameVersion = std::string(sim::hns::game_version_text(sim::hns::kCurrentGameVersion));
    info.seed = league->seed;
    info.matchesPerPairing = league->schedule.matchesPerPairing;
    info.planned = static_cast<int>(league->schedule.matches.size());
    info.state = league->state;
    const std::map<std::string, PromptSeatTally> turns = league->prompt_turns;
    lock.unlock();
    std::shared_ptr<const std::string> text;
    auto table = league::build_table(league->entrants, std::move(results), info);
    if (table) text = table_text(std::move(*table), league->entrants, turns, options_.llm.transport != LlmTransport::None);
    else spdlog::error("event=hns_league_table_failed id={} error=\"{}\"", league->id, table.error());
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
    std::string failure;
    if (!runner) {  // entrants and variant never change after creation: read without the lock
        auto made = LeagueRunner::create(league.entrants, league.variant, options_.llm, league.prompts);
        if (made) runner = std::move(*made);
        else failure = made.error();
    }
    std::optional<LeagueRunner::Outcome> outcome;
    if (runner) {
        // A stop lets prompt seats stop asking the model: the match then ends at built-in speed.
        auto played = runner->play_full(job.match, [&league] { return league.halted.load(); });
        if (played) outcome = std::move(*played);
        else failure = played.error();
    }
    lock.lock();
    if (runner && !league.runner) league.runner = runner;
    if (stopping_ || league.state != league::LeagueState::Running) {
        // A stop hands out nothing more and keeps nothing that was still being played.
        --league.in_flight;
        league.dirty = true;
        wake_.notify_all();
        return;
    }
    if (!outcome) {
        --league.in_flight;
        spdlog::error("event=hns_league_failed id={} error=\"{}\"", league.id, failure);
        end_locked(league, league::LeagueState::Stopped, failure);
        return;
    }
    lock.unlock();
    const std::string id = new_match_id_();
    std::string save_error;
    if (archive_) {
        store::ArchivedMatch row;
        row.id = id;
        row.variant = league.variant;
        row.finished_at_ms = util::unix_ms();
        row.final_tick = outcome->final_tick;
        const MatchView view = runner->archived_view(id, job.match, *outcome, row.finished_at_ms);
        row.end_reason = view.end_reason;
        row.results_json = outcome->results_json;
        row.summary_json = match_view_json(view, false);
        row.owner_hash = league.owner_hash;
        row.kind = store::kArchiveKindLeague;
        if (auto saved = archive_->save(row, outcome->played.replay); !saved) save_error = saved.error().message;
        else if (auto trimmed = archive_->trim(store::kArchiveKindLeague, options_.max_archived_matches); !trimmed)
            spdlog::error("event=hns_league_trim_failed error=\"{}\"", trimmed.error().message);
    }
    lock.lock();
    --league.in_flight;
    if (!save_error.empty()) {
        spdlog::error("event=hns_league_archive_failed id={} match={} error=\"{}\"", league.id, id, save_error);
        end_locked(league, league::LeagueState::Stopped, "archive: " + save_error);
        return;
    }
    league::MatchResult result;
    result.id = job.match.id;
    result.seed = job.match.seed;
    result.variant = league.variant;
    result.gameVersion = outcome->played.gameVersion;
    result.seats = job.match.seats;
    result.scores = outcome->played.scores;
    result.replay = id;
    result.programs = outcome->played.programs;  // how each prompt seat's turns went, as hschool-hns league notes it
    for (int slot = 0; slot < league::kSeats; ++slot) {
        if (!runner->prompt_seat(job.match.seats[slot])) continue;
        const PromptSeatTally& seat = outcome->prompt[static_cast<std::size_t>(slot)];
        PromptSeatTally& sum = league.prompt_turns[job.match.seats[slot]];
        sum.model_turns += seat.model_turns;
        sum.fallback_turns += seat.fallback_turns;
    }
    league.results.push_back(std::move(result));
    league.dirty = true;
    metrics_.league_match_played();
    if (league.forgotten) purges_.push_back(id);  // forgotten while it was being archived
    if (league.state == league::LeagueState::Running && league.next >= league.schedule.matches.size() && league.in_flight == 0) {
        spdlog::info("event=hns_league_finished id={} played={}", league.id, league.results.size());
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
            spdlog::error("event=hns_league_purge_failed match={} error=\"{}\"", id, removed.error().message);
    }
    lock.lock();
}

void LeagueHub::work() {
    net::take_thread_role("hns-league", kLeagueNice);
    if (kLeagueIdleScheduling) {
        // The calling thread only (pid 0 is the caller's tid on Linux); the nice above stays if refused.
        const sched_param param{};
        if (sched_setscheduler(0, SCHED_IDLE, &param) != 0)
            spdlog::warn("event=thread_priority_unchanged thread=hns-league policy=idle error=\"{}\"", std::strerror(errno));
    }
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
