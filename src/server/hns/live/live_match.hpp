#pragma once
// One live hide-and-seek match on its own thread (spec §2.7's loop): seats join over /player,
// spectators over /global and /admin, reward readers over /reward. Its thread alone touches the
// sim; sockets reach it through an inbox, so a match that waits for a decision or a slow seat
// delays only itself — never the arena, the schools or another match.
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "net/connection_limiter.hpp"
#include "net/thread_role.hpp"
#include "server/hns/contract/admission.hpp"
#include "server/hns/contract/control.hpp"
#include "server/hns/contract/hns_metrics.hpp"
#include "server/hns/contract/limits.hpp"
#include "server/hns/contract/match_view.hpp"
#include "net/ws_connection.hpp"
#include "server/hns/contract/query.hpp"
#include "sim/hns/config.hpp"

namespace hschool::server::hns {

enum class Endpoint { Player, Global, Reward };

struct MatchEvent;
struct MatchRuntime;

struct MatchSetup {
    std::string id;
    std::string variant;      // a variant name, or "custom" for a config body
    bool is_default = false;  // the match that starts with the server and is followed by a new one
    sim::hns::GameConfig config;  // with its room resolved (mapSpec set)
    int bots = 0;                 // seats the server fills itself with burrow, the highest slots
    int max_ticks_per_second = kDefaultMaxTicksPerSecond;  // fast mode's ceiling
    std::uint64_t start_ms = 0;   // unix ms, the replay header's start time
    std::string owner_hash;       // SHA-256 of the creator's owner token; "" for the operator's matches
    std::string creator_address;  // the client address that made it (per-address budget); "" for the server's
    std::size_t max_viewers = 0;              // /global, /admin, /reward sockets in all (0: no cap)
    std::size_t max_viewers_per_address = 0;  // and from one address
};

// What a finished match leaves behind.
struct FinishedMatch {
    MatchView view;
    std::string replay;   // COWLDHNS bytes
    std::string results;  // results JSON
    std::string metrics;  // the metrics file's JSON (traffic.hpp)
    std::string owner_hash;
};

class MatchListener {
public:
    virtual ~MatchListener() = default;
    // On the match's thread, once, after the last frame: the hub archives it.
    virtual void on_match_finished(const std::string& id, FinishedMatch finished) = 0;
    // The lobby timed out with `slot` missing (spec §2.9's player failure report).
    virtual void on_player_failure(const std::string& /*id*/, int /*slot*/, const std::string& /*message*/) {}
};

class LiveMatch : public std::enable_shared_from_this<LiveMatch> {
public:
    LiveMatch(MatchSetup setup, MatchListener& listener, HnsMetrics& metrics);
    ~LiveMatch();  // stops and joins
    LiveMatch(const LiveMatch&) = delete;
    LiveMatch& operator=(const LiveMatch&) = delete;

    // Builds the sim; false (with the reason) when the config cannot make one.
    bool prepare(std::string& error);
    // Its thread comes from `launcher`, so it runs before replay viewers whoever created the match.
    void start(net::ThreadLauncher& launcher);
    // Ends the match now without archiving it; sockets get 1001. Not from the match's own thread.
    void stop();
    // Asks the match to end (as stop) and returns at once; stop() later joins its thread.
    void request_stop();

    const std::string& id() const { return setup_.id; }
    const std::string& owner_hash() const { return setup_.owner_hash; }
    const std::string& creator_address() const { return setup_.creator_address; }
    bool is_default() const { return setup_.is_default; }
    bool ended() const;  // finished or stopped: the thread has left its loop (or is about to)

    // Before the upgrade: a 403/409 answer, or the sink the upgraded socket talks to. controls: a
    // /global socket whose speed keys count (open mode, or an owner's or the operator's token).
    std::variant<Rejection, std::shared_ptr<net::WsHandler>> admit(Endpoint endpoint, const QueryParams& query, bool controls = true,
                                                             const std::string& address = {});
    ControlDecision control(ControlRoute route, std::string_view method, const QueryParams& query);
    // /client/player's check: the 403/409 the /player upgrade would answer for this slot and token,
    // without taking (or asking for) a seat.
    std::optional<Rejection> check_player(const QueryParams& query) const;
    // The latest published view (refreshed every frame).
    MatchView view() const;

    // Frames sent so far (the sockets' per-tick allowances reset on it).
    std::uint64_t frames_sent() const { return frames_sent_.load(std::memory_order_relaxed); }

private:
    class Sink;

    void post(MatchEvent event);
    void publish_seats();  // the match thread's seats, for the next admission's check
    void run();
    void finish(bool stopped);

    MatchSetup setup_;
    MatchListener& listener_;
    HnsMetrics& metrics_;
    std::unique_ptr<MatchRuntime> rt_;  // the match thread's state
    std::atomic<std::uint64_t> frames_sent_{0};

    mutable std::mutex mutex_;  // guards everything below
    std::condition_variable wake_;
    std::vector<MatchEvent> inbox_;
    std::set<std::string> kicked_;              // at most kMaxKicksPerMatch
    std::shared_ptr<net::ConnectionLimiter> viewer_limiter_;  // spectators and reward readers; sinks share it
    bool restart_pending_ = false;              // a restart is queued: another one coalesces into it
    std::chrono::steady_clock::time_point last_restart_{};
    std::map<int, SeatClaim> claims_;          // player sockets not yet closed → who they are and ask for
    std::vector<SeatClaim> seats_;             // the match thread's seats as last published
    int next_socket_ = 1;
    int next_anonymous_ = 1;
    bool stop_requested_ = false;
    bool ended_ = false;
    MatchView published_;
    std::thread thread_;
};

}  // namespace hschool::server::hns
