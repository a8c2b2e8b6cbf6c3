// The match loop (spec §2.7): collect what the sockets sent, run the decision turn, compile the
// masks, step, record hashes, clear the ready flags, send the frames, then wait for the next frame
// time, or less in fast mode when every seated socket is ready. Seats and turns: live_seats.cpp.
#include "server/hns/live/live_match.hpp"

#include "net/thread_role.hpp"

#include <algorithm>
#include <atomic>

#include "protocol/sprite_v1.hpp"
#include "server/hns/contract/limits.hpp"
#include "server/hns/streams/budget.hpp"
#include "server/hns/live/live_match_state.hpp"
#include "server/hns/live/live_seats.hpp"
#include "sim/hns/records.hpp"
#include "util/wall_clock.hpp"

namespace hschool::server::hns {

namespace sv = protocol::sprite_v1;

// ---- the socket side: decodes on the network thread, posts what the match needs ----

class LiveMatch::Sink final : public net::WsHandler {
public:
    Sink(std::weak_ptr<LiveMatch> match, int socket, Endpoint endpoint, bool controls, bool compact = false)
        : match_(std::move(match)), socket_(socket), endpoint_(endpoint), controls_(controls), compact_(compact) {}
    // A viewer's place in the match's viewer budget, given back when the socket ends.
    void hold(std::shared_ptr<net::ConnectionLimiter> limiter, net::ConnectionLimiter::Slot slot) {
        limiter_ = std::move(limiter);
        slot_ = std::move(slot);
    }

    void on_open(std::shared_ptr<net::WsConnection> peer) override {
        peer_ = peer;
        MatchEvent e;
        e.kind = MatchEvent::Kind::Attach;
        e.endpoint = endpoint_;
        e.controls = controls_;
        e.compact = compact_;
        e.peer = std::move(peer);
        post(std::move(e));
    }

    void on_message(protocol::ByteView message, bool text) override {
        if (closed_) return;
        if (text) return refuse(net::close_code::kInvalidPayload, "Sprite v1 is binary: text frames are not accepted");
        // 0x85 and 0x87 count only as a whole 1-byte message (§1.2, §2.7); bundled, they are ignored.
        if (sv::is_standalone_ready(message)) {
            if (endpoint_ == Endpoint::Player) post(make_event(MatchEvent::Kind::Ready));
            return;
        }
        if (sv::is_standalone_sprites_off(message)) return post(make_event(MatchEvent::Kind::SpritesOff));
        auto decoded = sv::decode_client(message);
        if (!decoded) return refuse(net::close_code::kInvalidPayload, sv::describe(decoded.error()));
        std::optional<std::uint8_t> last_mask;  // a message of thousands of masks counts as its last one
        for (auto& m : *decoded) {
            if (auto* t = std::get_if<sv::InputText>(&m)) {
                if (t->text.size() > kMaxInputTextBytes) return refuse(net::close_code::kMessageTooBig, "text input over 4096 bytes");
                MatchEvent e = make_event(MatchEvent::Kind::Text);
                e.text = sv::printable_text(t->text);
                e.at = SteadyClock::now();
                post(std::move(e));
            } else if (auto* in = std::get_if<sv::PlayerInput>(&m)) {
                last_mask = in->mask;
            } else if (auto* debug = std::get_if<sv::DebugSprites>(&m)) {
                if (!within_debug_allowance(debug->payload.size()))
                    return refuse(net::close_code::kPolicyViolation, "debug sprites over 32 KiB per tick");
            }
            // Mouse messages are stored by the reference and never used: dropped here.
        }
        if (last_mask) {
            MatchEvent e = make_event(MatchEvent::Kind::Mask);
            e.mask = *last_mask;
            post(std::move(e));
        }
    }

    void on_closed() override {
        if (closed_.exchange(true)) return;
        slot_.release();
        post(make_event(MatchEvent::Kind::Closed));
    }

private:
    // 0x86 bytes are counted per frame of the match (the reference's 32 KiB per player per tick).
    bool within_debug_allowance(std::size_t bytes) {
        auto match = match_.lock();
        const std::uint64_t frame = match ? match->frames_sent() : 0;
        if (frame != debug_frame_) {
            debug_frame_ = frame;
            debug_bytes_ = 0;
        }
        debug_bytes_ += bytes;
        return debug_bytes_ <= sv::kMaxDebugSpritesBytes;
    }
    void refuse(std::uint16_t code, const std::string& reason) {
        if (auto peer = peer_.lock()) peer->close(code, reason.c_str());
    }
    void post(MatchEvent e) {
        e.socket = socket_;
        if (auto match = match_.lock()) match->post(std::move(e));
    }

    std::weak_ptr<LiveMatch> match_;
    const int socket_;
    const Endpoint endpoint_;
    const bool controls_;
    const bool compact_;  // a spectator that asked for the compact stream
    std::weak_ptr<net::WsConnection> peer_;
    std::atomic<bool> closed_{false};
    std::uint64_t debug_frame_ = 0;  // network thread only
    std::size_t debug_bytes_ = 0;
    std::shared_ptr<net::ConnectionLimiter> limiter_;  // outlives slot_ (declared first, destroyed last)
    net::ConnectionLimiter::Slot slot_;
};

// ---- construction, admission, control ----

LiveMatch::LiveMatch(MatchSetup setup, MatchListener& listener, HnsMetrics& metrics)
    : setup_(std::move(setup)), listener_(listener), metrics_(metrics) {
    published_.id = setup_.id;
    published_.variant = setup_.variant;
    published_.game_version = std::string(sim::hns::game_version_text(setup_.config.gameVersion));
    published_.is_default = setup_.is_default;
    viewer_limiter_ = std::make_shared<net::ConnectionLimiter>(setup_.max_viewers, setup_.max_viewers_per_address);
}

LiveMatch::~LiveMatch() {
    {
        std::lock_guard lock(mutex_);
        stop_requested_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
    else if (thread_.joinable()) thread_.detach();
}

bool LiveMatch::prepare(std::string& error) {
    auto created = sim::hns::Sim::create(setup_.config);
    if (!created) {
        error = created.error;
        return false;
    }
    rt_ = std::make_unique<MatchRuntime>(std::move(*created));
    rt_->start_ms = setup_.start_ms;
    rt_->writer = sim::hns::ReplayWriter(sim::hns::config_to_json(setup_.config), setup_.start_ms, setup_.config.gameVersion);
    for (int s = kSeats - std::clamp(setup_.bots, 0, kSeats); s < kSeats; ++s) rt_->seats[s].bot = true;
    rt_->stopping = [this] {  // a prompt seats' model wait ends when the match is stopped
        std::lock_guard lock(mutex_);
        return stop_requested_;
    };
    published_ = view_of(*rt_, setup_);
    metrics_.match_phase("", "lobby");
    return true;
}

void LiveMatch::start(net::ThreadLauncher& launcher) {
    thread_ = launcher.launch([this] { run(); });
}

void LiveMatch::stop() {
    {
        std::lock_guard lock(mutex_);
        stop_requested_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

bool LiveMatch::ended() const {
    std::lock_guard lock(mutex_);
    return ended_;
}

MatchView LiveMatch::view() const {
    std::lock_guard lock(mutex_);
    return published_;
}

std::optional<Rejection> LiveMatch::check_player(const QueryParams& query) const {
    std::lock_guard lock(mutex_);
    if (ended_ || stop_requested_) return Rejection{409, "match is over\n"};
    Roster roster = roster_of(setup_.config);
    roster.kicked.assign(kicked_.begin(), kicked_.end());
    auto admitted = admit_player(player_request(query), roster);
    if (auto* r = std::get_if<Rejection>(&admitted)) return *r;
    return std::nullopt;
}

std::variant<Rejection, std::shared_ptr<net::WsHandler>> LiveMatch::admit(Endpoint endpoint, const QueryParams& query, bool controls,
                                                                    const std::string& address) {
    std::lock_guard lock(mutex_);
    if (ended_ || stop_requested_) return Rejection{409, "match is over\n"};
    if (endpoint != Endpoint::Player) {
        bool compact = false;
        if (endpoint == Endpoint::Global) {
            if (auto refused = admit_viewer(query); auto* r = std::get_if<Rejection>(&refused)) return *r;
            const auto stream = viewer_stream(query);
            if (auto* r = std::get_if<Rejection>(&stream)) return *r;
            compact = std::get<ViewerStream>(stream) == ViewerStream::Compact;
        }
        net::ConnectionLimiter::Slot slot;
        static constexpr BudgetAnswers kViewers{"viewers_per_match", "this match has as many viewers as it can take\n",
                                                "viewers_per_address", "too many viewers of this match from this address\n",
                                                kViewerRetryAfterSeconds};
        if (auto refused = refusal_of(viewer_limiter_->try_admit(address, slot), kViewers, metrics_)) return *refused;
        auto sink = std::make_shared<Sink>(weak_from_this(), next_socket_++, endpoint, controls, compact);
        sink->hold(viewer_limiter_, std::move(slot));
        return std::shared_ptr<net::WsHandler>(std::move(sink));
    }
    Roster roster = roster_of(setup_.config);
    for (const auto& [id, claim] : claims_) roster.names_in_use.push_back(claim.identity);
    roster.names_in_use.insert(roster.names_in_use.end(), kicked_.begin(), kicked_.end());
    roster.kicked.assign(kicked_.begin(), kicked_.end());
    auto admitted = admit_player(player_request(query), roster);
    if (auto* r = std::get_if<Rejection>(&admitted)) return *r;
    auto& player = std::get<AdmittedPlayer>(admitted);
    std::vector<SeatClaim> sockets;
    for (const auto& [id, claim] : claims_) sockets.push_back(claim);
    const SeatAdmission seat = admit_to_seat(player, sockets, seats_, roster_has_tokens(roster));
    if (seat.refused) return *seat.refused;
    const int socket = next_socket_++;
    if (seat.replaces) claims_.erase(seat.replaces);
    claims_[socket] = SeatClaim{player.identity, player.slot, player.token, socket};
    MatchEvent join = make_event(MatchEvent::Kind::Join);  // ahead of the socket's attach in the inbox
    join.socket = socket;
    join.text = player.identity;
    join.token = player.token;
    join.slot = player.slot;
    join.replaces = seat.replaces;
    inbox_.push_back(std::move(join));
    return std::shared_ptr<net::WsHandler>(std::make_shared<Sink>(weak_from_this(), socket, endpoint, true));
}

ControlDecision LiveMatch::control(ControlRoute route, std::string_view method, const QueryParams& query) {
    ControlDecision decision = decide_control(route, method, query, ControlState{});
    if (!decision.queue_restart && decision.kick_identity.empty()) return decision;
    const auto refuse = [&](const char* text, const char* reason, int retry_after) {
        metrics_.refused(reason);
        ControlDecision refused;
        refused.status = 429;
        refused.body = text;
        refused.retry_after_seconds = retry_after;
        return refused;
    };
    MatchEvent e = make_event(decision.queue_restart ? MatchEvent::Kind::Restart : MatchEvent::Kind::Kick);
    e.text = decision.kick_identity;
    {
        std::lock_guard lock(mutex_);
        if (decision.queue_restart) {
            if (restart_pending_) return decision;  // a restart pending is a restart pending
            const auto now = std::chrono::steady_clock::now();
            if (last_restart_ != std::chrono::steady_clock::time_point{} &&
                now - last_restart_ < std::chrono::milliseconds(kMinRestartIntervalMs))
                return refuse(kRestartTooSoonText, "restart_interval", 1);
            restart_pending_ = true;
            last_restart_ = now;
        } else {
            if (kicked_.count(decision.kick_identity)) return decision;  // kicked already: nothing new to do
            if (kicked_.size() >= kMaxKicksPerMatch) return refuse(kKickListFullText, "kick_list", 60);
            kicked_.insert(decision.kick_identity);
        }
    }
    post(std::move(e));
    return decision;
}

void LiveMatch::publish_seats() {
    std::vector<SeatClaim> seats = seat_claims(*rt_);
    if (seats == rt_->published_claims) return;
    rt_->published_claims = seats;
    std::lock_guard lock(mutex_);
    seats_ = std::move(seats);
}

void LiveMatch::post(MatchEvent event) {
    using K = MatchEvent::Kind;
    // What a socket sends is droppable when the match is this far behind; what changes the match's
    // shape (joins, attaches, closes, controls) never is, and is bounded by the socket caps.
    const bool droppable = event.kind == K::Mask || event.kind == K::Ready || event.kind == K::SpritesOff || event.kind == K::Text;
    {
        std::lock_guard lock(mutex_);
        if (event.kind == K::Closed) claims_.erase(event.socket);
        if (droppable && inbox_.size() >= kMaxInboxEvents) {
            metrics_.refused("match_inbox");
            return;
        }
        inbox_.push_back(std::move(event));
    }
    wake_.notify_one();
}

void LiveMatch::request_stop() {
    {
        std::lock_guard lock(mutex_);
        stop_requested_ = true;
    }
    wake_.notify_all();
}

// ---- the loop ----

void LiveMatch::run() {
    net::take_thread_role(("hns-" + setup_.id).c_str(), kMatchNice);
    MatchRuntime& rt = *rt_;
    rt.loop_start = SteadyClock::now();
    auto last_return = rt.loop_start;
    const auto wall_budget = std::chrono::seconds(std::max(1, setup_.config.wallClockBudgetSeconds));
    const auto turn_budget = std::chrono::milliseconds(std::max(1, setup_.config.turnBudgetMs));
    const int max_tps = std::max(1, setup_.max_ticks_per_second);
    auto not_before = last_return;  // fast mode's ceiling: no frame before this
    std::vector<MatchEvent> events;
    bool stopped = false;
    for (;;) {
        // Wait for the next frame time, the decision deadline, or anything from the sockets; while
        // the ceiling holds the next frame back, only a stop wakes the match.
        {
            std::unique_lock lock(mutex_);
            const auto frame_due = last_return + std::chrono::microseconds(kFrameMicros);
            const auto due = rt.turn_waiting ? rt.turn_dispatched + turn_budget : frame_due;
            if (SteadyClock::now() < not_before) wake_.wait_until(lock, not_before, [&] { return stop_requested_; });
            else wake_.wait_until(lock, due, [&] { return stop_requested_ || !inbox_.empty(); });
            events.swap(inbox_);
            if (restart_pending_) {
                for (const auto& e : events)
                    if (e.kind == MatchEvent::Kind::Restart) restart_pending_ = false;
            }
            stopped = stop_requested_;
        }
        if (stopped) break;
        for (auto& e : events) handle_event(rt, e, metrics_);
        if (!events.empty()) publish_seats();
        events.clear();
        const auto now = SteadyClock::now();

        if (rt.turn_waiting) {
            if (!turn_settled_now(rt, now, turn_budget)) continue;
            finish_turn(rt, now, metrics_);
        } else if (const auto due = frame_due_now(rt, now - last_return, setup_.config.fastMode); due == PaceDecision::Wait) {
            continue;
        } else if (rt.sim.phase() == sim::hns::GamePhase::Playing) {
            count_frame(rt.frames, due, std::chrono::duration_cast<std::chrono::microseconds>(now - last_return).count());
        }
        // The wall-clock stop (§2.9): record, force, zero masks, one last step, hash, quit.
        if (now - rt.loop_start >= wall_budget && !rt.sim.finished()) {
            wall_clock_stop(rt);
            send_frames(rt, metrics_);
            break;
        }
        if (!rt.turn_waiting) {
            admit_pending(rt, setup_, listener_, metrics_);
            publish_seats();
            if (begin_turn(rt, now, metrics_)) continue;  // external seats are deciding: no step yet
        }
        const int ticks_before = rt.sim.tick_count();
        step_frame(rt, metrics_);
        for (auto& [id, s] : rt.sockets) s.pace.ready = false;
        // A replay that would outgrow the archive ends the match first, the way the wall clock does.
        if (rt.writer.bytes().size() >= kMaxLiveReplayBytes && !rt.sim.finished()) {
            wall_clock_stop(rt);
            rt.end_reason = "replay_limit";
            metrics_.refused("replay_size");
        }
        {
            // Published before the frames go out: a client that saw a tick finds it (or later) in the REST.
            MatchView view = view_of(rt, setup_);
            std::lock_guard lock(mutex_);
            published_ = std::move(view);
        }
        send_frames(rt, metrics_);
        frames_sent_.fetch_add(1, std::memory_order_relaxed);
        // The limiter returned when it let this frame go (§2.7), not when the frame was sent, and a
        // frame let go a little late keeps the 24 Hz grid: neither a thousand spectators to send to
        // nor a busy machine's late wake-ups may slow the match. More than a frame late starts afresh.
        const auto period = std::chrono::microseconds(kFrameMicros);
        last_return = now - last_return >= period && now - last_return < 2 * period ? last_return + period : now;
        not_before = last_return + std::chrono::microseconds(
                                       static_cast<std::int64_t>(rt.sim.tick_count() - ticks_before) * 1'000'000 / max_tps);
        if (rt.sim.finished() || !rt.end_reason.empty()) break;
    }
    finish(stopped);
}

void LiveMatch::finish(bool stopped) {
    MatchRuntime& rt = *rt_;
    FinishedMatch done;
    if (!stopped) {
        done.results = rt.sim.results_json();
        rt.writer.chat(sim::hns::replay_tick_time(rt.sim.tick_count()), 0, sim::hns::result_record(done.results));
        done.replay = rt.writer.bytes();
        std::vector<SeatMetrics> seats;
        const auto& players = rt.sim.players();
        for (std::size_t s = 0; s < players.size() && s < rt.traffic.size(); ++s)
            seats.push_back(SeatMetrics{static_cast<int>(s), players[s].address, rt.traffic[s]});
        done.metrics = metrics_json(rt.sim.tick_count(), rt.frames, seats);
    }
    done.owner_hash = setup_.owner_hash;
    MatchView view = view_of(rt, setup_);
    view.phase = stopped ? "stopped" : "finished";
    view.finished_at_ms = util::unix_ms();
    view.results_json = done.results;
    view.end_reason = stopped ? "stopped" : !rt.end_reason.empty() ? rt.end_reason : end_reason_of(done.results);
    metrics_.match_phase(rt.phase_text.c_str(), "");
    for (auto& seat : rt.seats)
        if (seat.seated) metrics_.seat_kind(kind_text(seat.policy.kind), "");
    done.view = view;
    {
        std::lock_guard lock(mutex_);
        published_ = view;
        ended_ = true;
    }
    // Archived (and drop-in files written) before the sockets hear 1000, so a client that reacts to
    // the close finds the results and the replay.
    if (!stopped) listener_.on_match_finished(setup_.id, std::move(done));
    for (auto& [id, s] : rt.sockets) {
        if (s.peer) s.peer->close(stopped ? net::close_code::kGoingAway : net::close_code::kNormal, stopped ? "match ended" : "match over");
    }
    rt.sockets.clear();
}

}  // namespace hschool::server::hns
