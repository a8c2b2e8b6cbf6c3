#include "server/hns/hub/hub.hpp"

#include <spdlog/spdlog.h>

#include <boost/json.hpp>


#include <algorithm>
#include <cstring>
#include <chrono>
#include <random>
#include <set>

#include "server/hns/streams/budget.hpp"
#include "server/hns/contract/limits.hpp"
#include "server/hns/streams/replay_viewer.hpp"
#include "sim/hns/room_files.hpp"
#include "store/hns_archive.hpp"
#include "util/wall_clock.hpp"

namespace hschool::server::hns {

namespace json = boost::json;
namespace sh = sim::hns;

namespace {

// Six hex digits: a local match id's tag while the shared archive's sequence is out of reach.
std::string random_tag() {
    static constexpr char kHex[] = "0123456789abcdef";
    std::random_device device;
    std::string tag;
    for (int i = 0; i < 6; ++i) tag += kHex[device() % 16];
    return tag;
}

MatchView view_of_archived(const store::ArchivedMatch& m) {
    MatchView v;
    if (!match_view_from_json(m.summary_json, v)) {
        v = MatchView{};
        v.id = m.id;
        v.variant = m.variant;
    }
    v.phase = "finished";
    v.finished_at_ms = m.finished_at_ms;
    v.end_reason = m.end_reason;
    v.results_json = m.results_json;
    v.tick = m.final_tick;
    return v;
}

}  // namespace

std::variant<sh::GameConfig, HubError> build_config(const CreateRequest& request) {
    sh::GameConfig config;
    if (request.variant != "default") {
        auto variant = sh::variant_config(request.variant);
        if (!variant) return HubError{400, "invalid-field", "variant: unknown " + request.variant + " (default, warren, long-hall, certification)"};
        config = *variant;
    }
    if (!request.config_json.empty()) {
        auto applied = sh::apply_config_json(config, request.config_json);
        if (!applied) return HubError{400, "invalid-config", "config." + applied.error};
        config = *applied;
    }
    if (const std::string invalid = sh::validate_config(config); !invalid.empty())
        return HubError{400, "invalid-config", "config." + invalid};
    if (config.seed == sh::kUnpinnedSeed) {  // §2.9: an unpinned seed is drawn before the room is chosen
        std::random_device device;
        config.seed = static_cast<std::int64_t>(device() & 0x7FFFFFFF);
    }
    auto resolved = sh::resolve_room_spec(config);
    if (!resolved) return HubError{400, "invalid-config", "config.roomPool: " + resolved.error};
    return *resolved;
}

HnsHub::HnsHub(HubOptions options, store::HnsArchive* archive, HnsMetrics& metrics)
    : options_(std::move(options)),
      archive_(archive),
      metrics_(metrics),
      replay_limiter_(options_.max_replay_viewers, options_.max_replay_viewers_per_address) {}

HnsHub::~HnsHub() { stop(); }

bool HnsHub::start(std::string& error) {
    if (archive_) {
        auto max_id = archive_->max_numeric_id();
        if (!max_id) {
            error = "archive: " + max_id.error().message;
            return false;
        }
        next_id_ = *max_id + 1;
    }
    if (options_.default_match) {
        sh::GameConfig config;
        if (options_.default_config) {
            config = *options_.default_config;
        } else {
            auto built = build_config(CreateRequest{options_.default_variant, "", 0});
            if (auto* e = std::get_if<HubError>(&built)) {
                error = e->detail;
                return false;
            }
            config = std::get<sh::GameConfig>(built);
        }
        if (!launch(options_.default_config ? "custom" : options_.default_variant, std::move(config), 0, true, "", "", error)) return false;
    }
    supervisor_ = std::thread([this] { supervise(); });
    worker_ = std::thread([this] { work(); });
    return true;
}

void HnsHub::stop() {
    std::map<std::string, std::shared_ptr<LiveMatch>> matches;
    {
        std::lock_guard lock(mutex_);
        if (stopping_ && matches_.empty() && !supervisor_.joinable() && !worker_.joinable()) return;
        stopping_ = true;
        matches.swap(matches_);
    }
    wake_.notify_all();
    if (supervisor_.joinable()) supervisor_.join();
    if (worker_.joinable()) worker_.join();  // answers what is still queued with 503 first
    std::vector<std::shared_ptr<LiveMatch>> deleted;
    {
        std::lock_guard lock(mutex_);
        deleted.swap(deleted_);
    }
    for (auto& match : deleted) match->stop();
    for (auto& [id, match] : matches) match->stop();
    // Replay viewers end with their sockets, which the network finishes when it stops.
}

std::shared_ptr<LiveMatch> HnsHub::launch(const std::string& variant, sh::GameConfig config, int bots, bool is_default,
                                          std::string owner_hash, std::string address, std::string& error) {
    MatchSetup setup;
    setup.id = new_match_id();
    setup.variant = variant;
    setup.is_default = is_default;
    setup.config = std::move(config);
    setup.bots = bots;
    setup.owner_hash = std::move(owner_hash);
    setup.creator_address = std::move(address);
    setup.max_viewers = options_.max_viewers_per_match;
    setup.max_viewers_per_address = options_.max_viewers_per_address_per_match;
    setup.max_ticks_per_second = options_.max_ticks_per_second;
    setup.start_ms = static_cast<std::uint64_t>(util::unix_ms());
    auto opened = LiveMatch::open(std::move(setup), *this, metrics_);
    if (!opened) {
        error = opened.error;
        return nullptr;
    }
    std::shared_ptr<LiveMatch> match = std::move(*opened);
    {
        std::lock_guard lock(mutex_);
        if (stopping_) {
            error = "the server is stopping";
            return nullptr;
        }
        matches_[match->id()] = match;
        if (is_default) default_id_ = match->id();
    }
    match->start(launcher_);
    spdlog::info("event=hns_match_started id={} variant={} default={} bots={}", match->id(), variant, is_default, bots);
    return match;
}

std::shared_ptr<LiveMatch> HnsHub::find(const std::string& id) const {
    std::lock_guard lock(mutex_);
    auto it = matches_.find(id);
    return it == matches_.end() ? nullptr : it->second;
}

Permission HnsHub::permission(std::string_view credential, std::string_view owner_hash) const {
    return options_.access ? options_.access(credential, owner_hash) : Permission::Granted;
}

std::string HnsHub::default_match_id() const {
    std::lock_guard lock(mutex_);
    return default_id_;
}

std::string HnsHub::new_match_id() {
    // A shared archive numbers the matches of every server (issue 34); outside the lock: it asks a database.
    auto claimed = archive_ ? archive_->claim_numeric_id() : std::optional<std::int64_t>();
    if (claimed && *claimed) return "m" + std::to_string(**claimed);
    std::lock_guard lock(mutex_);
    if (!claimed) {
        // The database is out of reach: a local number with a random tag cannot collide with the
        // fleet's (saving it waits for the database anyway).
        spdlog::warn("event=hns_match_id_local error=\"{}\"", claimed.error().message);
        return "m" + std::to_string(next_id_++) + "-" + random_tag();
    }
    return "m" + std::to_string(next_id_++);
}

std::size_t HnsHub::running() const {
    std::lock_guard lock(mutex_);
    std::size_t n = 0;
    for (const auto& [id, match] : matches_)
        if (!match->ended()) ++n;
    return n;
}

std::optional<HubError> HnsHub::over_address_budget(const std::string& address) const {
    if (options_.max_matches_per_address == 0 || address.empty()) return std::nullopt;
    std::size_t mine = 0;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [id, match] : matches_)
            if (match->creator_address() == address && !match->ended()) ++mine;
    }
    if (mine < options_.max_matches_per_address) return std::nullopt;
    metrics_.refused("matches_per_address");
    return HubError{429, "too-many-matches-per-address",
                    "this address already runs " + std::to_string(mine) + " matches; delete one or wait for one to finish",
                    kBudgetRetryAfterSeconds};
}

void HnsHub::create(CreateRequest request, std::string owner_hash, std::string address, CreateDone done) {
    if (options_.league_only || replay_mode()) return done(create_now(request));
    if (auto over = over_address_budget(address)) return done(std::move(*over));
    const bool queued = submit([this, request = std::move(request), owner_hash = std::move(owner_hash), address = std::move(address),
                                done]() mutable { done(create_now(request, std::move(owner_hash), address)); });
    if (!queued) done(HubError{503, "hub-busy", "too many matches are being created right now; try again shortly", 1});
}

bool HnsHub::submit(std::function<void()> job) {
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

void HnsHub::work() {
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

std::variant<MatchView, HubError> HnsHub::create_now(const CreateRequest& request, std::string owner_hash, const std::string& address) {
    if (replay_mode())
        return HubError{409, "replay-mode", "this server plays back one replay (replay mode); no match can be created"};
    if (options_.league_only)
        return HubError{409, "league-match-only", "this server runs the league's match only (drop-in mode); no other match can be created"};
    {
        std::lock_guard lock(mutex_);
        if (stopping_) return HubError{503, "stopping", "the server is stopping", 1};
    }
    auto built = build_config(request);
    if (auto* e = std::get_if<HubError>(&built)) return *e;
    if (running() >= options_.max_matches)
        return HubError{409, "too-many-matches", "at most " + std::to_string(options_.max_matches) + " matches run at once"};
    if (auto over = over_address_budget(address)) return *over;  // again: creates from one address may have raced
    std::string error;
    auto match = launch(request.config_json.empty() ? request.variant : "custom", std::move(std::get<sh::GameConfig>(built)),
                        request.bots, false, std::move(owner_hash), address, error);
    if (!match) return HubError{400, "invalid-config", error};
    return match->view();
}

std::vector<MatchView> HnsHub::list() {
    std::vector<MatchView> out;
    std::set<std::string> seen;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [id, match] : matches_) {
            if (match->ended()) continue;  // archived: listed below
            out.push_back(match->view());
            seen.insert(id);
        }
    }
    std::sort(out.begin(), out.end(), [](const MatchView& a, const MatchView& b) {
        if (a.is_default != b.is_default) return a.is_default;
        return a.id < b.id;
    });
    if (archive_) {
        auto archived = archive_->list(kMaxListedArchived);
        if (archived) {
            for (const auto& m : *archived)
                if (!seen.count(m.id)) out.push_back(view_of_archived(m));
        }
    }
    return out;
}

std::optional<MatchView> HnsHub::get(const std::string& id) {
    if (auto match = find(id); match && !match->ended()) return match->view();
    if (!archive_) return std::nullopt;
    auto archived = archive_->get(id);
    if (!archived || !*archived) return std::nullopt;
    return view_of_archived(**archived);
}

std::variant<std::string, HubError> HnsHub::replay_file(const std::string& id) {
    if (auto match = find(id); match && !match->ended())
        return HubError{409, "match-running", "match " + id + " is still running; its replay is saved when it ends"};
    if (!archive_) return HubError{404, "not-found", "no finished match " + id};
    auto file = archive_->replay_file(id);
    if (!file) return HubError{503, "store-unavailable", file.error().message};
    if (!*file) return HubError{404, "not-found", "no finished match " + id};
    return (*file)->path.string();  // "" when the replay lives in a database: replay_bytes reads it
}

void HnsHub::replay_bytes(const std::string& id, std::function<void(std::variant<std::string, HubError>)> done) {
    auto read = [this, id, done] {
        auto bytes = archive_ ? archive_->replay(id) : std::optional<std::string>();
        if (!bytes) return done(HubError{503, "store-unavailable", bytes.error().message});
        if (!*bytes) return done(HubError{404, "not-found", "no finished match " + id});
        done(std::move(**bytes));
    };
    // Up to 64 MiB from a database: on the hub's worker, never on a network thread.
    if (!submit(read)) done(HubError{503, "busy", "too many requests are waiting; try again shortly", kBudgetRetryAfterSeconds});
}

std::optional<HubError> HnsHub::remove(const std::string& id, std::string_view credential) {
    if (options_.league_only) return HubError{403, "league-match-only", "the league's match cannot be deleted (drop-in mode)"};
    if (permission(credential, "") == Permission::Missing) return permission_error(Permission::Missing, "match " + id);
    std::shared_ptr<LiveMatch> match;
    {
        std::lock_guard lock(mutex_);
        auto it = matches_.find(id);
        if (it != matches_.end() && !it->second->ended()) {
            if (const Permission may = permission(credential, it->second->owner_hash()); may != Permission::Granted)
                return permission_error(may, "match " + id);
            match = it->second;
            matches_.erase(it);
        }
    }
    if (match) {
        // Sockets get 1001 and nothing is archived; the supervisor joins the thread, not this one.
        match->request_stop();
        spdlog::info("event=hns_match_deleted id={}", id);
        {
            std::lock_guard lock(mutex_);
            deleted_.push_back(std::move(match));
            if (deleted_.back()->is_default() && options_.renew_default) finished_.push_back(id);  // a new default match
        }
        wake_.notify_all();
        return std::nullopt;
    }
    if (!archive_) return HubError{404, "not-found", "no match " + id};
    if (options_.access) {
        auto archived = archive_->get(id);
        if (!archived) return HubError{503, "store-unavailable", archived.error().message};
        if (!*archived) return HubError{404, "not-found", "no match " + id};
        if (const Permission may = permission(credential, (*archived)->owner_hash); may != Permission::Granted)
            return permission_error(may, "match " + id);
    }
    auto removed = archive_->remove(id);
    if (!removed) return HubError{503, "store-unavailable", removed.error().message};
    if (!*removed) return HubError{404, "not-found", "no match " + id};
    return std::nullopt;
}

void HnsHub::on_match_finished(const std::string& id, FinishedMatch finished) {
    if (archive_) {
        store::ArchivedMatch row;
        row.id = id;
        row.variant = finished.view.variant;
        row.finished_at_ms = finished.view.finished_at_ms;
        row.final_tick = finished.view.tick;
        row.end_reason = finished.view.end_reason;
        row.results_json = finished.results;
        row.summary_json = match_view_json(finished.view, false);
        row.owner_hash = finished.owner_hash;
        if (auto saved = archive_->save(row, finished.replay); !saved)
            spdlog::error("event=hns_archive_failed id={} error=\"{}\"", id, saved.error().message);
    }
    spdlog::info("event=hns_match_finished id={} tick={} reason={}", id, finished.view.tick, finished.view.end_reason);
    if (finished_hook_) finished_hook_(id, finished);
    {
        std::lock_guard lock(mutex_);
        finished_.push_back(id);
    }
    wake_.notify_all();
}

void HnsHub::on_player_failure(const std::string& id, int slot, const std::string& message) {
    spdlog::info("event=hns_lobby_timeout id={} missing_slot={}", id, slot);
    if (failure_hook_ && id == default_match_id()) failure_hook_(slot, message);
}

void HnsHub::supervise() {
    net::take_thread_role("hns-supervisor", 0);
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [&] { return stopping_ || !finished_.empty() || !deleted_.empty(); });
        if (stopping_) return;
        std::vector<std::string> ids;
        ids.swap(finished_);
        std::vector<std::shared_ptr<LiveMatch>> deleted;
        deleted.swap(deleted_);
        bool renew = false;
        std::vector<std::shared_ptr<LiveMatch>> reaped;
        for (const auto& id : ids) {
            if (id == default_id_) {
                renew = options_.renew_default;
                default_id_.clear();
            }
            auto it = matches_.find(id);
            if (it == matches_.end()) continue;
            reaped.push_back(it->second);
            matches_.erase(it);
        }
        lock.unlock();
        for (auto& match : deleted) match->stop();
        deleted.clear();
        for (auto& match : reaped) match->stop();  // joins a thread that has already left its loop
        reaped.clear();
        if (archive_) {  // keep the archive bounded
            if (auto all = archive_->list(kMaxArchivedMatches + 16); all && all->size() > kMaxArchivedMatches) {
                for (std::size_t i = kMaxArchivedMatches; i < all->size(); ++i) (void)archive_->remove((*all)[i].id);
            }
        }
        if (renew) {
            std::string error;
            auto built = build_config(CreateRequest{options_.default_variant, "", 0});
            if (auto* config = std::get_if<sh::GameConfig>(&built)) {
                if (!launch(options_.default_variant, std::move(*config), 0, true, "", "", error))
                    spdlog::error("event=hns_default_match_failed error=\"{}\"", error);
            }
        }
        lock.lock();
    }
}

}  // namespace hschool::server::hns
