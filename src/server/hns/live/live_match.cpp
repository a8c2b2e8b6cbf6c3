// The match loop (spec §2.7): collect what the sockets sent, run the decision turn, compile the
// masks, step, record hashes, clear the ready flags, send the frames, then wait for the next frame
// time, or less in fast mode when every seated socket is ready.
#include "server/hns/live/live_match.hpp"

#include <algorithm>

#include "net/log_throttle.hpp"
#include "server/hns/contract/pacing.hpp"
#include "util/log.hpp"
#include "util/wall_clock.hpp"

namespace hschool::server::hns {

namespace sh = sim::hns;

Expected<std::shared_ptr<LiveMatch>> LiveMatch::open(MatchSetup setup, MatchListener& listener, HnsMetrics& metrics) {
    auto created = sh::Sim::create(setup.config);
    if (!created) return Expected<std::shared_ptr<LiveMatch>>::fail(created.error);
    auto match = std::make_shared<LiveMatch>(std::move(setup), std::move(*created), listener, metrics);
    match->publish_view();
    metrics.match_phase("", "lobby");
    return Expected<std::shared_ptr<LiveMatch>>::ok(std::move(match));
}

LiveMatch::LiveMatch(MatchSetup setup, sh::Sim sim, MatchListener& listener, HnsMetrics& metrics)
    : setup_(std::move(setup)),
      listener_(listener),
      metrics_(metrics),
      gate_(setup_.config, setup_.max_viewers, setup_.max_viewers_per_address, metrics),
      game_(std::move(sim), setup_.config, setup_.start_ms),
      seats_(setup_.bots, metrics),
      turns_([this] {  // a prompt seats' model wait ends when the match is stopped
          std::lock_guard lock(mutex_);
          return stop_requested_;
      }) {}

// The pool holds the match while it runs, so a match destroyed was never pooled or is done.
LiveMatch::~LiveMatch() {
    {
        std::lock_guard lock(mutex_);
        stop_requested_ = true;
    }
    gate_.shut();
    wake_.notify_all();
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
    else if (thread_.joinable()) thread_.detach();
}

void LiveMatch::start(net::ThreadLauncher& launcher, net::TaskPool* pool) {
    if (pool) {
        pool_.store(pool);
        pool->add(shared_from_this());
        return;
    }
    thread_ = launcher.launch([this] { run(); });
}

void LiveMatch::stop() {
    request_stop();
    if (pool_.load()) {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return done_; });
        return;
    }
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

void LiveMatch::request_stop() {
    {
        std::lock_guard lock(mutex_);
        stop_requested_ = true;
    }
    gate_.shut();
    wake_.notify_all();
    if (auto* pool = pool_.load()) pool->wake(*this);
}

bool LiveMatch::ended() const {
    std::lock_guard lock(mutex_);
    return ended_;
}

MatchView LiveMatch::view() const {
    std::lock_guard lock(mutex_);
    return published_;
}

std::variant<Rejection, std::shared_ptr<net::WsHandler>> LiveMatch::admit(Endpoint endpoint, const QueryParams& query, bool controls,
                                                                          const std::string& address) {
    auto admitted = gate_.admit(endpoint, query, controls, address, weak_from_this());
    if (auto* refused = std::get_if<Rejection>(&admitted)) return *refused;
    auto& door = std::get<MatchGate::Admitted>(admitted);
    if (door.join) post(std::move(*door.join));  // ahead of anything the socket sends (its attach comes after the upgrade)
    return std::move(door.handler);
}

ControlDecision LiveMatch::control(ControlRoute route, std::string_view method, const QueryParams& query) {
    auto [decision, event] = gate_.control(route, method, query);
    if (event) post(std::move(*event));
    return decision;
}

void LiveMatch::post(MatchEvent event) {
    using K = MatchEvent::Kind;
    // What a socket sends is droppable when the match is this far behind; what changes the match's
    // shape (joins, attaches, closes, controls) never is, and is bounded by the socket caps.
    const bool droppable = event.kind == K::Mask || event.kind == K::Ready || event.kind == K::SpritesOff || event.kind == K::Text;
    const bool closed = event.kind == K::Closed;
    const int socket = event.socket;
    {
        std::lock_guard lock(mutex_);
        if (droppable && inbox_.size() >= kMaxInboxEvents) {
            metrics_.refused("match_inbox");
            return;
        }
        inbox_.push_back(std::move(event));
    }
    wake_.notify_one();
    if (auto* pool = pool_.load()) pool->wake(*this);
    // After its close is queued: a re-dial admitted from now on joins behind it and finds the seat free.
    if (closed) gate_.closed(socket);
}

void LiveMatch::writer_caught_up() {
    {
        std::lock_guard lock(mutex_);
        writer_caught_up_ = true;
    }
    wake_.notify_one();
    if (auto* pool = pool_.load()) pool->wake(*this);
}

void LiveMatch::note_late(SteadyClock::duration late) {
    static net::LogThrottle behind_log(kBehindLogInterval);  // one line for all matches
    metrics_.frame_late();
    if (const auto skipped = behind_log.allow(SteadyClock::now()))
        logging::info("event=hns_behind match={} late_ms={} similar_events_not_logged={}", setup_.id,
                      std::chrono::duration_cast<std::chrono::milliseconds>(late).count(), *skipped);
}

void LiveMatch::publish_seats() {
    std::vector<SeatClaim> claims = seats_.claims();
    if (claims == published_claims_) return;
    published_claims_ = claims;
    gate_.publish(std::move(claims));
}

void LiveMatch::publish_view() {
    MatchView view = match_view_of(game_.sim(), seats_, setup_.id, setup_.variant, setup_.is_default);
    std::lock_guard lock(mutex_);
    published_ = std::move(view);
}

// ---- the match thread ----

void LiveMatch::handle(MatchEvent& e) {
    using K = MatchEvent::Kind;
    switch (e.kind) {
    case K::Join: return seats_.join(e, game_.sim());
    case K::Attach: return seats_.attach(e);
    case K::Restart: return restart();
    case K::Kick: return seats_.kick(e.text);
    default: break;
    }
    MatchSocket* socket = seats_.socket(e.socket);
    if (!socket) return;
    switch (e.kind) {
    case K::Text: return on_text(*socket, e);
    case K::Mask: socket->mask = e.mask; return;
    case K::Ready: socket->ready = true; return;
    case K::SpritesOff: socket->stream.set_sprites_off(true); return;
    case K::Closed: return seats_.closed(game_, e.socket);
    default: return;
    }
}

void LiveMatch::on_text(const MatchSocket& socket, const MatchEvent& e) {
    if (socket.endpoint == Endpoint::Global) {
        if (socket.controls) speed_index_ = apply_live_speed_keys(speed_index_, e.text);
        return;
    }
    if (socket.endpoint != Endpoint::Player) return;
    if (seats_.register_text(game_, e.socket, e.text)) return;
    turns_.reply(game_, seats_, e.socket, socket.player_index, e.text, e.at);
}

void LiveMatch::restart() {
    if (!game_.restart()) return;
    seats_.restart();
    turns_.reset();
    speed_index_ = kDefaultSpeedIndex;
}

PaceDecision LiveMatch::frame_due(SteadyClock::duration since_last_frame) const {
    PaceInput input;
    input.elapsed_us = std::chrono::duration_cast<std::chrono::microseconds>(since_last_frame).count();
    input.fast_mode = setup_.config.fastMode;
    input.all_ready = all_active_ready(seats_.pace_sockets(), static_cast<int>(game_.sim().players().size()));
    return pace(input);
}

std::uint8_t LiveMatch::mask_of(int slot) {
    if (slot >= kSeats) return 0;
    if (seats_.manual(slot)) return seats_.manual_mask(slot);
    return game_.driver().compile_mask(game_.sim(), turns_.order(slot), slot);
}

// The loop's wait: for the ceiling (only a stop cuts it short), for the network to catch up, or
// for the next frame time or the decision deadline; a socket's event or a stop ends the last two.
LiveMatch::LoopWait LiveMatch::next_wait() const {
    const auto turn_budget = std::chrono::milliseconds(std::max(1, setup_.config.turnBudgetMs));
    if (SteadyClock::now() < not_before_) return {not_before_, false};
    if (held_for_network_) return {hold_recheck_at_, true};
    return {turns_.waiting() ? turns_.dispatched() + turn_budget : last_return_ + std::chrono::microseconds(kFrameMicros), true};
}

bool LiveMatch::wait_over(const LoopWait& wait) const {
    return stop_requested_ || SteadyClock::now() >= wait.until || (wait.events_end_it && (!inbox_.empty() || writer_caught_up_));
}

void LiveMatch::begin_loop() {
    loop_start_ = SteadyClock::now();
    last_return_ = loop_start_;
    not_before_ = loop_start_;
}

// A match of its own thread: waits on its condition variable between passes.
void LiveMatch::run() {
    net::take_thread_role(("hns-" + setup_.id).c_str(), kMatchNice);
    begin_loop();
    for (;;) {
        const LoopWait wait = next_wait();
        {
            std::unique_lock lock(mutex_);
            wake_.wait_until(lock, wait.until, [&] { return wait_over(wait); });
        }
        if (!pass()) return;
    }
}

// A match on the pool: each call is one pass when its wait is over, and says when to look again.
std::optional<SteadyClock::time_point> LiveMatch::run_pass() {
    if (!loop_begun_) {
        loop_begun_ = true;
        begin_loop();
        return next_wait().until;
    }
    const LoopWait wait = next_wait();
    {
        std::lock_guard lock(mutex_);
        if (!wait_over(wait)) return wait.until;  // woken early: a socket's event while the ceiling holds
    }
    if (!pass()) return std::nullopt;
    return next_wait().until;
}

// One pass of the loop (spec §2.7) after its wait; false when the match has ended.
bool LiveMatch::pass() {
    const auto wall_budget = std::chrono::seconds(std::max(1, setup_.config.wallClockBudgetSeconds));
    const auto turn_budget = std::chrono::milliseconds(std::max(1, setup_.config.turnBudgetMs));
    const int max_tps = std::max(1, setup_.max_ticks_per_second);
    bool stopped = false;
    {
        std::lock_guard lock(mutex_);
        writer_caught_up_ = false;
        events_.swap(inbox_);
        // The restart queued is taken: the next one may queue (within the same lock as the swap).
        if (std::any_of(events_.begin(), events_.end(), [](const MatchEvent& e) { return e.kind == MatchEvent::Kind::Restart; }))
            gate_.restart_taken();
        stopped = stop_requested_;
    }
    if (stopped) {
        finish(true);
        return false;
    }
    for (auto& e : events_) handle(e);
    if (!events_.empty()) publish_seats();
    events_.clear();
    const auto now = SteadyClock::now();
    bool by_the_clock = false;  // this frame goes because its time came (not a turn's replies, not fast mode)
    held_for_network_ = false;

    if (turns_.waiting()) {
        if (!turns_.settled(seats_, now, turn_budget)) return true;
        turns_.finish(game_, now, metrics_);
    } else if (const auto due = frame_due(now - last_return_); due == PaceDecision::Wait) {
        return true;
    } else if ((held_for_network_ = MatchStreams::network_behind(seats_))) {
        // The server, not a reader, is behind: this match's ticks slow down with everyone's
        // instead of its seats' frames piling up until they are closed (issue 42).
        hold_recheck_at_ = now + kNetworkHoldRecheck;  // a fixed time: a pass woken early keeps it
        metrics_.network_wait();
        return true;
    } else if (by_the_clock = due == PaceDecision::FrameElapsed; game_.sim().phase() == sh::GamePhase::Playing) {
        count_frame(frames_, due, std::chrono::duration_cast<std::chrono::microseconds>(now - last_return_).count());
    }
    // The wall-clock stop (§2.9): record, force, zero masks, one last step, hash, quit.
    if (now - loop_start_ >= wall_budget && !game_.sim().finished()) {
        game_.wall_clock_stop();
        streams_.send(game_.sim(), seats_, metrics_);
        finish(false);
        return false;
    }
    if (!turns_.waiting()) {
        seats_.admit_pending(game_, [this](int slot, const std::string& message) { listener_.on_player_failure(setup_.id, slot, message); });
        publish_seats();
        // External seats are deciding: no step yet.
        if (turns_.begin(game_, seats_, now, std::chrono::duration_cast<std::chrono::seconds>(now - loop_start_), metrics_)) return true;
    }
    const int ticks_before = game_.sim().tick_count();
    game_.step(ticks_per_frame(speed_index_), [this](int slot) { return mask_of(slot); }, metrics_);
    seats_.clear_ready();
    // A replay that would outgrow the archive ends the match first, the way the wall clock does.
    if (game_.replay_full() && !game_.sim().finished()) {
        game_.wall_clock_stop();
        end_reason_ = "replay_limit";
        metrics_.refused("replay_size");
    }
    publish_view();  // before the frames go out: a client that saw a tick finds it (or later) in the REST
    streams_.send(game_.sim(), seats_, metrics_);
    frames_sent_.fetch_add(1, std::memory_order_relaxed);
    if (setup_.test_frame_delay.count() > 0) std::this_thread::sleep_for(setup_.test_frame_delay);
    // The limiter returned when it let this frame go (§2.7), not when the frame was sent, and a
    // frame let go a little late keeps the 24 Hz grid: neither a thousand spectators to send to
    // nor a busy machine's late wake-ups may slow the match. More than a frame late starts afresh.
    const auto period = std::chrono::microseconds(kFrameMicros);
    if (by_the_clock && now - last_return_ >= 2 * period) note_late(now - last_return_ - period);
    last_return_ = now - last_return_ >= period && now - last_return_ < 2 * period ? last_return_ + period : now;
    not_before_ = last_return_ + std::chrono::microseconds(static_cast<std::int64_t>(game_.sim().tick_count() - ticks_before) * 1'000'000 / max_tps);
    if (game_.sim().finished() || !end_reason_.empty()) {
        finish(false);
        return false;
    }
    return true;
}

void LiveMatch::finish(bool stopped) {
    const sh::Sim& sim = game_.sim();
    FinishedMatch done;
    if (!stopped) {
        done.results = sim.results_json();
        done.replay = game_.close_replay(done.results);
        std::vector<SeatMetrics> seats;
        const auto& players = sim.players();
        for (std::size_t s = 0; s < players.size() && s < streams_.traffic().size(); ++s)
            seats.push_back(SeatMetrics{static_cast<int>(s), players[s].address, streams_.traffic()[s]});
        done.metrics = metrics_json(sim.tick_count(), frames_, seats);
    }
    done.owner_hash = setup_.owner_hash;
    MatchView view = match_view_of(sim, seats_, setup_.id, setup_.variant, setup_.is_default);
    view.phase = stopped ? "stopped" : "finished";
    view.finished_at_ms = util::unix_ms();
    view.results_json = done.results;
    view.end_reason = stopped ? "stopped" : !end_reason_.empty() ? end_reason_ : end_reason_of(done.results);
    metrics_.match_phase(game_.phase_reported().c_str(), "");
    seats_.forget_kinds();
    done.view = view;
    {
        std::lock_guard lock(mutex_);
        published_ = view;
        ended_ = true;
    }
    gate_.shut();
    // Archived (and drop-in files written) before the sockets hear 1000, so a client that reacts to
    // the close finds the results and the replay.
    if (!stopped) listener_.on_match_finished(setup_.id, std::move(done));
    for (auto& [id, s] : seats_.sockets()) {
        // 1000: the match is over, its results are in the REST; 1001: it was stopped.
        if (s.peer) s.peer->close(stopped ? net::close_code::kGoingAway : net::close_code::kNormal, stopped ? "match ended" : "match over");
    }
    seats_.sockets().clear();
    {
        std::lock_guard lock(mutex_);
        done_ = true;
    }
    wake_.notify_all();
}

}  // namespace hschool::server::hns
