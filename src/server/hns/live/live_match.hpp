#pragma once
// One live hide-and-seek match (spec §2.7's loop), on the match pool or a thread of its own: seats
// join over /player, spectators over /global and /admin, reward readers over /reward. One pass at
// a time touches the game; sockets reach it through its inbox, so a match that waits for a slow
// seat delays only itself — never the arena, the schools or another match. A match whose prompt
// seats may ask a model waits seconds for it, so it gets its own thread. The loop's parts: the
// door (match_gate), the game (match_game), the seats (match_seats), the turns (match_turns) and
// what goes out (match_streams).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <variant>
#include <vector>

#include "net/task_pool.hpp"
#include "net/thread_role.hpp"
#include "net/ws_connection.hpp"
#include "server/hns/contract/admission.hpp"
#include "server/hns/contract/control.hpp"
#include "server/hns/contract/hns_metrics.hpp"
#include "server/hns/contract/limits.hpp"
#include "server/hns/contract/match_view.hpp"
#include "server/hns/contract/metrics_file.hpp"
#include "server/hns/contract/query.hpp"
#include "server/hns/live/match_event.hpp"
#include "server/hns/live/match_game.hpp"
#include "server/hns/live/match_gate.hpp"
#include "server/hns/live/match_seats.hpp"
#include "server/hns/live/match_streams.hpp"
#include "server/hns/live/match_turns.hpp"
#include "sim/hns/config.hpp"
#include "server/hns/contract/expected.hpp"

namespace hschool::server::hns {

struct MatchSetup {
    std::string id;
    std::string variant;      // a variant name, or "custom" for a config body
    bool is_default = false;  // the match that starts with the server and is followed by a new one
    sim::hns::GameConfig config;  // with its room resolved (mapSpec set)
    int bots = 0;                 // seats the server fills itself with burrow, the highest slots
    int max_ticks_per_second = kDefaultMaxTicksPerSecond;  // fast mode's ceiling
    std::chrono::milliseconds test_frame_delay{0};  // testing: a sleep after every frame, behind by construction
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
    std::string metrics;  // the metrics file's JSON (metrics_file.hpp)
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

class LiveMatch final : public MatchInbox, public net::PoolTask, public std::enable_shared_from_this<LiveMatch> {
public:
    // Builds the match's sim (a big room takes milliseconds); why not, when the config cannot make one.
    static Expected<std::shared_ptr<LiveMatch>> open(MatchSetup setup, MatchListener& listener, HnsMetrics& metrics);
    LiveMatch(MatchSetup setup, sim::hns::Sim sim, MatchListener& listener, HnsMetrics& metrics);  // open() makes one
    ~LiveMatch() override;  // stops and joins
    LiveMatch(const LiveMatch&) = delete;
    LiveMatch& operator=(const LiveMatch&) = delete;

    // On `pool` when there is one; otherwise its thread comes from `launcher`, so it runs before
    // replay viewers whoever created the match. The pool outlives the match's run.
    void start(net::ThreadLauncher& launcher, net::TaskPool* pool);
    // Ends the match now without archiving it and waits until it has; sockets get 1001. Not from
    // the match's own pass, nor from another match's on the pool.
    void stop();
    // Asks the match to end (as stop) and returns at once; stop() later joins its thread.
    void request_stop();

    const std::string& id() const { return setup_.id; }
    const std::string& owner_hash() const { return setup_.owner_hash; }
    const std::string& creator_address() const { return setup_.creator_address; }
    bool is_default() const { return setup_.is_default; }
    bool ended() const;  // finished or stopped: the thread has left its loop (or is about to)

    // Before the upgrade: a 403/409 answer, or the handler the upgraded socket talks to. controls: a
    // /global socket whose speed keys count (open mode, or an owner's or the operator's token).
    std::variant<Rejection, std::shared_ptr<net::WsHandler>> admit(Endpoint endpoint, const QueryParams& query, bool controls = true,
                                                                   const std::string& address = {});
    ControlDecision control(ControlRoute route, std::string_view method, const QueryParams& query);
    // /client/player's check: the 403/409 the /player upgrade would answer for this slot and token,
    // without taking (or asking for) a seat.
    std::optional<Rejection> check_player(const QueryParams& query) const { return gate_.check_player(query); }
    // The latest published view (refreshed every frame).
    MatchView view() const;

    // MatchInbox: what the match's sockets and controls send, for its thread.
    void post(MatchEvent event) override;
    std::uint64_t frames_sent() const override { return frames_sent_.load(std::memory_order_relaxed); }
    void writer_caught_up() override;

    // PoolTask: one pass of the loop when its wait is over; nullopt when the match has ended.
    std::optional<SteadyClock::time_point> run_pass() override;

private:
    struct LoopWait {
        SteadyClock::time_point until;
        bool events_end_it = true;  // a socket's event (or the network catching up) ends it early
    };
    void run();  // its own thread: passes, with the waits between them
    void begin_loop();
    LoopWait next_wait() const;
    bool wait_over(const LoopWait& wait) const;  // under mutex_
    bool pass();
    void handle(MatchEvent& event);
    void on_text(const MatchSocket& socket, const MatchEvent& event);
    void restart();
    // Pacing: 41,666 µs since the last frame, or (fast mode) every seated socket sent a lone 0x85.
    PaceDecision frame_due(SteadyClock::duration since_last_frame) const;
    std::uint8_t mask_of(int slot);
    void publish_seats();  // the match thread's seats, for the next admission's check
    void publish_view();
    // A frame let go more than a frame time late: counted, and logged for all matches once per interval.
    void note_late(SteadyClock::duration late);
    void finish(bool stopped);

    const MatchSetup setup_;
    MatchListener& listener_;
    HnsMetrics& metrics_;
    MatchGate gate_;
    std::atomic<std::uint64_t> frames_sent_{0};

    // The match thread's own (its thread alone touches them once it runs):
    MatchGame game_;
    MatchSeats seats_;
    MatchTurns turns_;
    MatchStreams streams_;
    int speed_index_ = kDefaultSpeedIndex;
    FrameCounts frames_;                       // Playing frames by pacing (the metrics file)
    std::vector<SeatClaim> published_claims_;  // the seats as the gate last saw them
    std::string end_reason_;                   // set when the server ended the match early ("replay_limit")
    SteadyClock::time_point loop_start_{};
    SteadyClock::time_point last_return_{};  // when the limiter last let a frame go (§2.7)
    SteadyClock::time_point not_before_{};   // fast mode's ceiling: no frame before this
    bool held_for_network_ = false;          // the frame is due but a seat's earlier frames are not yet written
    SteadyClock::time_point hold_recheck_at_{};  // held: look again then, if no writer says so before
    bool loop_begun_ = false;
    std::vector<MatchEvent> events_;  // the inbox as the last pass took it
    std::atomic<net::TaskPool*> pool_{nullptr};  // set by start(); sockets may post before it is

    mutable std::mutex mutex_;  // guards everything below
    std::condition_variable wake_;
    std::vector<MatchEvent> inbox_;
    bool stop_requested_ = false;
    bool writer_caught_up_ = false;  // a seat's network thread wrote what the held frame waited for
    bool ended_ = false;
    bool done_ = false;  // finish() has returned: stop() waits for it on the pool
    MatchView published_;
    std::thread thread_;
};

}  // namespace hschool::server::hns
