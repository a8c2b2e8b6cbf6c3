#pragma once
// Every hide-and-seek match of the process: the default match that starts with the server (and is
// followed by a new one when it finishes), matches made through the REST, the cap on how many run
// at once, the archive of finished ones, and which match a socket or a control request means.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "server/hns/live/live_match.hpp"
#include "server/hns/contract/match_request.hpp"
#include "server/hns/streams/replay_pool.hpp"
#include "net/connection_limiter.hpp"
#include "net/thread_role.hpp"
#include "server/hns/contract/permission.hpp"

namespace hschool::store {
class HnsArchive;
}

namespace hschool::server::hns {

inline constexpr std::size_t kDefaultMaxMatches = 128;  // concurrent live matches (--hns-max-matches)
inline constexpr std::size_t kMaxListedArchived = 50;   // finished matches listed by GET /api/hns/matches
inline constexpr std::size_t kMaxArchivedMatches = 500; // older finished matches are deleted
inline constexpr std::size_t kMaxReplayViewers = 64;    // /replay sockets re-stepping at once
inline constexpr std::size_t kDefaultMaxReplayViewersPerAddress = 8;
inline constexpr std::size_t kDefaultMaxMatchesPerAddress = 8;      // live REST-made matches one address may have
inline constexpr std::size_t kDefaultMaxViewersPerMatch = 256;      // /global, /admin and /reward sockets of one match
inline constexpr std::size_t kDefaultMaxViewersPerAddressPerMatch = 16;
inline constexpr std::size_t kMaxPendingHubJobs = 128;  // creates and /replay loads waiting for the hub's worker (503/1013 past it)
inline constexpr int kBudgetRetryAfterSeconds = 5;

struct HubOptions {
    std::size_t max_matches = kDefaultMaxMatches;
    bool default_match = true;
    std::string default_variant = "default";
    std::optional<sim::hns::GameConfig> default_config;  // drop-in mode: this config instead of the variant
    bool renew_default = true;                           // drop-in mode runs exactly one match
    bool league_only = false;  // drop-in mode: no match may be created or deleted through the REST
    std::size_t max_matches_per_address = kDefaultMaxMatchesPerAddress;  // 0: no cap
    std::size_t max_replay_viewers = kMaxReplayViewers;
    std::size_t max_replay_viewers_per_address = kDefaultMaxReplayViewersPerAddress;
    std::size_t max_viewers_per_match = kDefaultMaxViewersPerMatch;
    std::size_t max_viewers_per_address_per_match = kDefaultMaxViewersPerAddressPerMatch;
    int max_ticks_per_second = kDefaultMaxTicksPerSecond;
    // Who may end or change a match (owners mode); unset: everyone (open mode).
    AccessCheck access;
    // Replay-server mode (COGAME_LOAD_REPLAY_URI): this verified replay on /replay, no live match,
    // no controls, no creates. replay_uri is the URI it was loaded from (/replay?uri= must name it).
    std::shared_ptr<const std::string> replay_bytes;
    std::string replay_uri;
};

inline constexpr const char* kMissingReplayUriText = "missing replay uri\n";
inline constexpr const char* kUnreadableReplayUriText = "replay uri is not readable\n";

inline constexpr const char* kOwnerTokenRefusedText = "owner token does not match this match\n";

// A variant's config with the config keys applied and its room resolved; the error names the key.
std::variant<sim::hns::GameConfig, HubError> build_config(const CreateRequest& request);

class HnsHub final : public MatchListener {
public:
    using FinishedHook = std::function<void(const std::string& id, const FinishedMatch& finished)>;

    HnsHub(HubOptions options, store::HnsArchive* archive, HnsMetrics& metrics);
    ~HnsHub() override;

    // Starts the default match (when configured) and the supervisor that reaps finished matches.
    bool start(std::string& error);
    // Stops every match (sockets get 1001) and the supervisor.
    void stop();
    // Called (on the finishing match's thread) after a match is archived; drop-in mode exits on it.
    void on_finished(FinishedHook hook) { finished_hook_ = std::move(hook); }

    // Before a WebSocket upgrade on /player, /global, /admin, /reward or /replay.
    // address: the client's, for the per-address budgets.
    std::variant<Rejection, std::shared_ptr<net::WsHandler>> admit(std::string_view path, std::string_view query,
                                                             const std::string& address = {});
    // /client/player: the 403/409 the /player upgrade would answer (same texts), or nothing; no seat
    // is taken. 404 when no match runs (replay mode, between matches).
    std::optional<Rejection> check_player_page(std::string_view query);
    // The match a /client page of this query shows: ?match=, else the default one ("" in replay mode).
    std::string page_match(std::string_view query);
    bool replay_mode() const { return options_.replay_bytes != nullptr; }
    // credential: the request's bearer token (may be empty); restart and kick need the owner's or
    // the operator's when the access check asks for one.
    ControlDecision control(ControlRoute route, std::string_view method, std::string_view query, std::string_view credential);

    // owner_hash: SHA-256 of the token handed to the creator ("" in open mode). The sim is built on
    // the hub's worker thread (a big room takes milliseconds), which then calls `done`; a full
    // worker queue, the league's mode and the per-address budget answer at once.
    using CreateDone = std::function<void(std::variant<MatchView, HubError>)>;
    void create(CreateRequest request, std::string owner_hash, std::string address, CreateDone done);
    std::variant<MatchView, HubError> create_now(const CreateRequest& request, std::string owner_hash = {},
                                                 const std::string& address = {});
    std::vector<MatchView> list();
    std::optional<MatchView> get(const std::string& id);
    // The finished match's replay file (checked, not read) for a download that streams it.
    std::variant<std::string, HubError> replay_file(const std::string& id);
    // The finished match's replay bytes, read on the hub's worker (a shared database keeps replays
    // in rows: replay_file gives "" for them); `done` runs there.
    void replay_bytes(const std::string& id, std::function<void(std::variant<std::string, HubError>)> done);
    std::optional<HubError> remove(const std::string& id, std::string_view credential = {});
    std::size_t running() const;
    // The match that started with the server ("" between one default match and the next).
    std::string default_match_id() const;
    // A fresh id from the matches' own sequence ("m<N>"): a league's matches are archived under
    // such ids too, so an id names one match whichever kind made it (issue 33).
    std::string new_match_id();

    // MatchListener
    void on_match_finished(const std::string& id, FinishedMatch finished) override;
    void on_player_failure(const std::string& id, int slot, const std::string& message) override;
    void on_player_failure_hook(std::function<void(int, const std::string&)> hook) { failure_hook_ = std::move(hook); }

private:
    std::shared_ptr<LiveMatch> find(const std::string& id) const;
    std::variant<Rejection, std::shared_ptr<net::WsHandler>> admit_loaded_replay(const QueryParams& query, const std::string& address);
    std::shared_ptr<LiveMatch> launch(const std::string& variant, sim::hns::GameConfig config, int bots, bool is_default,
                                      std::string owner_hash, std::string address, std::string& error);
    std::optional<HubError> over_address_budget(const std::string& address) const;
    // Queues work for the worker (creates, /replay loads); false when the queue is full or stopping.
    bool submit(std::function<void()> job);
    void work();
    Permission permission(std::string_view credential, std::string_view owner_hash) const;
    void supervise();

    HubOptions options_;
    net::ThreadLauncher launcher_;  // matches' threads, at the hub's creator's priority whoever asks (outlives them)
    store::HnsArchive* archive_;
    HnsMetrics& metrics_;
    FinishedHook finished_hook_;
    std::function<void(int, const std::string&)> failure_hook_;

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::map<std::string, std::shared_ptr<LiveMatch>> matches_;
    std::vector<std::string> finished_;  // ids to reap
    std::vector<std::shared_ptr<LiveMatch>> deleted_;  // asked to stop; the supervisor joins them
    std::deque<std::function<void()>> jobs_;           // for the worker
    std::thread worker_;
    std::string default_id_;
    std::int64_t next_id_ = 1;
    bool stopping_ = false;
    std::thread supervisor_;
    std::shared_ptr<std::atomic<int>> replay_viewers_ = std::make_shared<std::atomic<int>>(0);
    net::ConnectionLimiter replay_limiter_;  // /replay sockets in all and per address
    ReplayPool replay_pool_{ReplayPool::one_per_core()};  // draws every /replay viewer's frames
};

}  // namespace hschool::server::hns
