// Events, seats, decision turns and steps of a live match (the match thread only).
#include <algorithm>

#include "server/hns/live_seats.hpp"
#include "server/hns/llm_settings.hpp"
#include "server/hns/rewards.hpp"
#include "sim/hns/baselines.hpp"
#include "sim/hns/records.hpp"
#include "sim/hns/teacher_seat.hpp"

namespace hschool::server::hns {

namespace sh = sim::hns;
using sh::GamePhase;

namespace {

constexpr const char* kBaselineNames[2] = {"burrow", "scatter"};

std::uint32_t now_ms(const MatchRuntime& rt) { return sh::replay_tick_time(rt.sim.tick_count()); }

SocketState* socket_of(MatchRuntime& rt, int id) {
    auto it = rt.sockets.find(id);
    return it == rt.sockets.end() ? nullptr : &it->second;
}

void refresh_names(MatchRuntime& rt) {
    std::vector<std::string> names, kinds;
    for (std::size_t s = 0; s < rt.sim.players().size() && s < rt.seats.size(); ++s) {
        names.push_back(rt.seats[s].identity);
        kinds.push_back(policy_kind_text(rt.seats[s].policy.kind));
    }
    rt.sim.set_seat_names(std::move(names));
    rt.sim.set_policy_kinds(std::move(kinds));
}

void set_policy(MatchRuntime& rt, int index, SeatPolicy policy, HnsMetrics& metrics) {
    SeatState& seat = rt.seats[static_cast<std::size_t>(index)];
    metrics.seat_kind(seat.seated ? kind_text(seat.policy.kind) : "", kind_text(policy.kind));
    seat.policy = std::move(policy);
    seat.seated = true;
    refresh_names(rt);
}

void apply_registration(MatchRuntime& rt, int index, Registration registration, HnsMetrics& metrics) {
    SeatState& seat = rt.seats[static_cast<std::size_t>(index)];
    const bool record = seat.registration.apply(std::move(registration));
    set_policy(rt, index, seat.registration.policy(), metrics);
    if (record) {
        rt.writer.chat(now_ms(rt), index,
                       sh::register_record(index, seat.policy.label, policy_kind_text(seat.policy.kind),
                                           kBaselineNames[static_cast<int>(seat.policy.baseline)]));
    }
}

void seat_player(MatchRuntime& rt, int index, SocketState* socket, int socket_id, const std::string& identity, int slot,
                 const std::string& token, HnsMetrics& metrics) {
    rt.writer.join(now_ms(rt), index, identity, slot, token);
    SeatState& seat = rt.seats[static_cast<std::size_t>(index)];
    seat.identity = identity;
    seat.token = token;
    seat.socket = socket_id;
    if (socket) {
        socket->player_index = index;
        socket->pending = false;
    }
    set_policy(rt, index, seat_policy(nullptr), metrics);
    if (socket && socket->held) {
        apply_registration(rt, index, std::move(*socket->held), metrics);
        socket->held.reset();
    } else if (!socket) {
        rt.writer.chat(now_ms(rt), index, sh::register_record(index, "burrow", "scripted", "burrow"));
    }
}

// A seat whose socket went is played by burrow from then on, so it never holds a turn open.
void orphan_seat(MatchRuntime& rt, int index, HnsMetrics& metrics) {
    SeatState& seat = rt.seats[static_cast<std::size_t>(index)];
    seat.socket = 0;
    if (seat.policy.kind != PolicyKind::Scripted) set_policy(rt, index, seat_policy(nullptr), metrics);
}

bool has_tokens(const MatchRuntime& rt) {
    const auto& slots = rt.sim.config().slots;
    return std::any_of(slots.begin(), slots.end(), [](const auto& s) { return !s.token.empty(); });
}

// A joining socket whose identity holds a seat takes it back: after its old socket closed (a
// re-dial), or from the old socket when the admission let it replace that one (same token).
void reclaim_seat(MatchRuntime& rt, int socket_id, int replaces) {
    SocketState& socket = rt.sockets.at(socket_id);
    if (replaces != 0) {
        if (auto old = rt.sockets.find(replaces); old != rt.sockets.end()) {
            old->second.player_index = -1;  // its frames stop being the seat's before its close lands
            old->second.pending = false;
            if (old->second.peer) old->second.peer->close(kClosePolicy, "replaced by a newer connection for this seat");
        }
    }
    for (std::size_t i = 0; i < rt.seats.size(); ++i) {
        SeatState& seat = rt.seats[i];
        if (!seat.seated || seat.bot || seat.filled || seat.identity != socket.identity) continue;
        if (seat.socket != 0 && seat.socket != replaces) {
            // Another live socket holds it: the admission check lost a race; this one gets nothing.
            socket.pending = false;
            return;
        }
        if (has_tokens(rt) && seat.token != socket.token) return;
        seat.socket = socket_id;
        socket.player_index = static_cast<int>(i);
        socket.pending = false;
        return;
    }
}

void restart(MatchRuntime& rt, HnsMetrics& metrics) {
    sh::GameConfig config = rt.sim.config();
    config.seed = config.seed == sh::kUnpinnedSeed ? config.seed : config.seed + 1;
    auto created = sh::Sim::create(config);
    if (!created) return;  // the same config built the first sim; keep playing it
    for (auto& seat : rt.seats)
        if (seat.seated) metrics.seat_kind(kind_text(seat.policy.kind), "");
    rt.sim = std::move(*created);
    rt.driver = sh::Driver(rt.sim);
    rt.writer = sh::ReplayWriter(sh::config_to_json(config), rt.start_ms, config.gameVersion);
    rt.masks.clear();
    rt.prev.clear();
    std::array<bool, 6> bots{};
    for (std::size_t s = 0; s < rt.seats.size(); ++s) bots[s] = rt.seats[s].bot;
    for (auto& [id, socket] : rt.sockets) {
        if (socket.endpoint == Endpoint::Player && socket.player_index >= 0) {
            const SeatState& seat = rt.seats[static_cast<std::size_t>(socket.player_index)];
            if (seat.registration.current()) socket.held = *seat.registration.current();
        }
        socket.player_index = -1;
        socket.pending = socket.endpoint == Endpoint::Player;
        socket.stream.restart();  // the next frame starts with the header (0x04 clears)
    }
    for (std::size_t s = 0; s < rt.seats.size(); ++s) {
        // A restart never hands a person's seat to another identity.
        const SeatState& old = rt.seats[s];
        rt.reserved[s] = old.seated && !old.bot && !old.filled ? MatchRuntime::Reservation{old.identity, old.token}
                                                               : MatchRuntime::Reservation{};
        rt.seats[s] = SeatState{};
        rt.seats[s].bot = bots[s];
    }
    rt.turn_waiting = false;
    rt.last_turn_key = -1;
    rt.speed_index = kDefaultSpeedIndex;
    rt.llm.reset();
}

void on_text(MatchRuntime& rt, SocketState& socket, const MatchEvent& e) {
    if (socket.endpoint == Endpoint::Global) {
        if (socket.controls) rt.speed_index = apply_live_speed_keys(rt.speed_index, e.text);
        return;
    }
    if (socket.endpoint != Endpoint::Player) return;
    if (!e.text.empty() && e.text.front() == '{') {
        // Held until the seat is seated; the caller applies it to a seated one at once.
        if (auto registration = parse_registration(e.text)) socket.held = std::move(*registration);
        return;  // anything else is other chat, dropped in squad mode (§2.3)
    }
    if (socket.player_index < 0 || !rt.turn_waiting) return;
    SeatState& seat = rt.seats[static_cast<std::size_t>(socket.player_index)];
    if (seat.socket != e.socket || !seat.awaiting || seat.reply) return;
    Reply reply = parse_reply(e.text, rt.turn_game, rt.turn, sim::hns::order_context(rt.sim));
    if (reply.status == ReplyStatus::Ignored || reply.status == ReplyStatus::TooLong) return;
    const auto dispatched_ms = std::chrono::duration_cast<std::chrono::milliseconds>(rt.turn_dispatched.time_since_epoch()).count();
    const auto arrival_ms = std::chrono::duration_cast<std::chrono::milliseconds>(e.at.time_since_epoch()).count();
    if (!reply_in_time(dispatched_ms, arrival_ms, rt.sim.config().turnBudgetMs)) return;
    seat.reply = std::move(reply);
    seat.reply_at = e.at;
}

void shout(MatchRuntime& rt, int slot, const std::string& say) {
    if (say.empty()) return;
    if (rt.sim.apply_shout(slot, say)) rt.writer.chat(now_ms(rt), slot, say);
}

void remember(MatchRuntime& rt, int slot, const sh::Order& order, const std::string& result) {
    SeatState& seat = rt.seats[static_cast<std::size_t>(slot)];
    seat.order = order;
    seat.has_order = true;
    seat.memory.last_result = result;
    if (!order.notes.empty()) seat.memory.notes = order.notes;
    if (!order.radio.empty()) seat.memory.radio = order.radio;
}

// What every seat remembers, as the observation reads it.
std::array<sim::hns::SeatMemory, kSeats> seat_memory(const MatchRuntime& rt) {
    std::array<sim::hns::SeatMemory, kSeats> memory;
    for (std::size_t i = 0; i < memory.size(); ++i) {
        memory[i] = rt.seats[i].memory;
        memory[i].last_order = rt.seats[i].has_order ? &rt.seats[i].order : nullptr;
    }
    return memory;
}

// The prompt seats' turn: one parallel batch (and a retry) on this thread, then each seat's order
// or burrow, with the fallback records, the directive and the llm/fallback turn counts.
void ask_models(MatchRuntime& rt, const std::vector<LlmSeatAsk>& asks, int turn, HnsMetrics& metrics,
                std::vector<std::pair<int, std::string>>& says) {
    const LlmTurnResult result = rt.llm->run_turn(asks, sim::hns::order_context(rt.sim), rt.stopping);
    const auto ms = now_ms(rt);
    for (const LlmFallbackNote& note : result.notes) {
        metrics.fallback(note.cause.c_str());
        rt.writer.chat(ms, 0, sh::fallback_record(rt.sim, note.slot, turn, note.cause, note.attempt, note.detail));
    }
    for (const LlmSeatAnswer& answer : result.answers) {
        const int s = answer.slot;
        SeatState& seat = rt.seats[static_cast<std::size_t>(s)];
        const sh::Order burrow = sh::baseline_order(sh::Baseline::Burrow, rt.sim, rt.driver, s, turn);
        sh::Order order = burrow;
        std::string result_text = sim::hns::last_result_text(rt.sim, s);
        if (answer.ok) {
            bool rejected = false;
            order = sh::resolve_reply(seat.has_order ? &seat.order : nullptr, answer.order, burrow, rejected);
            if (rejected) {
                rt.sim.add_orders_rejected(s);
                result_text = sh::kResultUnknownObject;
            }
            rt.sim.add_llm_turn(s);
            metrics.decision_latency(static_cast<double>(answer.latency_ms) / 1000.0);
        } else {
            rt.sim.add_fallback_turn(s);
        }
        rt.writer.chat(ms, s, sh::directive_record(rt.sim, s, turn, order, result_text, answer.ok ? kSourceLlm : "fallback",
                                                   answer.ok ? answer.latency_ms : 0));
        remember(rt, s, order, result_text);
        says.emplace_back(s, order.say);
    }
}

}  // namespace

const char* phase_text(GamePhase phase) {
    switch (phase) {
    case GamePhase::Lobby: return "lobby";
    case GamePhase::Playing: return "playing";
    case GamePhase::GameOver: return "game_over";
    }
    return "lobby";
}

const char* kind_text(PolicyKind kind) {
    switch (kind) {
    case PolicyKind::Scripted: return "scripted";
    case PolicyKind::External: return "external";
    case PolicyKind::Prompt: return "prompt";
    case PolicyKind::Manual: return "manual";
    }
    return "scripted";
}

std::vector<SeatClaim> seat_claims(const MatchRuntime& rt) {
    std::vector<SeatClaim> claims;
    for (std::size_t i = 0; i < rt.seats.size(); ++i) {
        const SeatState& seat = rt.seats[i];
        if (seat.seated) claims.push_back(SeatClaim{seat.identity, static_cast<int>(i), seat.token, seat.socket});
        else if (!rt.reserved[i].identity.empty())
            claims.push_back(SeatClaim{rt.reserved[i].identity, static_cast<int>(i), rt.reserved[i].token, 0});
    }
    return claims;
}

void handle_event(MatchRuntime& rt, MatchEvent& e, HnsMetrics& metrics) {
    using K = MatchEvent::Kind;
    switch (e.kind) {
    case K::Join: {
        SocketState& s = rt.sockets[e.socket];
        s.endpoint = Endpoint::Player;
        s.identity = e.text;
        s.requested_slot = e.slot;
        s.token = e.token;
        s.pending = rt.sim.phase() == GamePhase::Lobby;  // after the start: index −1, the header only
        reclaim_seat(rt, e.socket, e.replaces);
        return;
    }
    case K::Attach: {
        SocketState& s = rt.sockets[e.socket];
        s.endpoint = e.endpoint;
        s.controls = e.controls;
        s.compact = e.compact;
        s.peer = std::move(e.peer);
        return;
    }
    case K::Restart: restart(rt, metrics); return;
    case K::Kick:
        for (auto& [id, s] : rt.sockets) {
            if (s.endpoint == Endpoint::Player && s.peer && (s.identity == e.text || reward_id(s.identity) == e.text))
                s.peer->close(kClosePolicy, "player was kicked");
        }
        return;
    default: break;
    }
    SocketState* socket = socket_of(rt, e.socket);
    if (!socket) return;
    switch (e.kind) {
    case K::Text: {
        const bool seated = socket->player_index >= 0;
        on_text(rt, *socket, e);
        if (seated && registration_applies(socket->player_index) && socket->held) {
            apply_registration(rt, socket->player_index, std::move(*socket->held), metrics);
            socket->held.reset();
        }
        return;
    }
    case K::Mask: socket->mask = e.mask; return;
    case K::Ready: socket->pace.ready = true; return;
    case K::SpritesOff: socket->stream.set_sprites_off(true); return;
    case K::Closed:
        if (socket->player_index >= 0) {
            SeatState& seat = rt.seats[static_cast<std::size_t>(socket->player_index)];
            if (seat.socket == e.socket) orphan_seat(rt, socket->player_index, metrics);
        }
        rt.sockets.erase(e.socket);
        return;
    default: return;
    }
}

PaceDecision frame_due_now(const MatchRuntime& rt, SteadyClock::duration since_last_frame, bool fast_mode) {
    std::vector<PaceSocket> sockets;
    for (const auto& [id, s] : rt.sockets)
        if (s.endpoint == Endpoint::Player && s.peer) sockets.push_back(PaceSocket{s.player_index, s.pace.ready});
    const int players = static_cast<int>(rt.sim.players().size());
    PaceInput input;
    input.elapsed_us = std::chrono::duration_cast<std::chrono::microseconds>(since_last_frame).count();
    input.fast_mode = fast_mode;
    input.all_ready = all_active_ready(sockets, players);
    return pace(input);
}

void admit_pending(MatchRuntime& rt, const MatchSetup& setup, MatchListener& listener, HnsMetrics& metrics) {
    if (rt.sim.phase() != GamePhase::Lobby) {
        for (auto& [id, s] : rt.sockets) s.pending = false;
        return;
    }
    for (bool progress = true; progress;) {
        progress = false;
        const int n = static_cast<int>(rt.sim.players().size());
        if (n >= kSeats) break;
        if (rt.seats[static_cast<std::size_t>(n)].bot) {
            const std::string name = "Cog" + std::to_string(n + 1);
            if (auto added = rt.sim.add_player(name, n, "", true); added) {
                seat_player(rt, *added, nullptr, 0, name, n, "", metrics);
                progress = true;
            }
            continue;
        }
        // Pending sockets in (resolved slot, identity) order; only slot n may sit down now.
        std::vector<std::pair<int, int>> order;  // (resolved slot, socket id)
        for (auto& [id, s] : rt.sockets) {
            if (s.endpoint != Endpoint::Player || !s.pending || !s.peer) continue;
            order.emplace_back(s.requested_slot >= 0 ? s.requested_slot : n, id);
        }
        std::sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
            if (a.first != b.first) return a.first < b.first;
            return rt.sockets.at(a.second).identity < rt.sockets.at(b.second).identity;
        });
        for (const auto& [slot, id] : order) {
            SocketState& s = rt.sockets.at(id);
            if (slot < n) {  // its slot was taken meanwhile
                s.pending = false;
                s.peer->close(kClosePolicy, "Player slot is already occupied.");
                continue;
            }
            if (slot != n) continue;
            const auto& reserved = rt.reserved[static_cast<std::size_t>(n)];
            if (!reserved.identity.empty() && reserved.identity != s.identity) continue;  // seat n is kept for its holder
            auto added = rt.sim.add_player(s.identity, s.requested_slot, s.token, false);
            if (!added) {
                s.pending = false;
                s.peer->close(kClosePolicy, added.error.c_str());
                continue;
            }
            seat_player(rt, *added, &s, id, s.identity, s.requested_slot, s.token, metrics);
            progress = true;
            break;
        }
    }
    // §2.9: the lobby waited long enough; the missing seats play burrow as dead seats.
    if (rt.sim.lobby_join_timed_out()) {
        const int first = static_cast<int>(rt.sim.players().size());
        if (first < kSeats) listener.on_player_failure(setup.id, first, "seat " + std::to_string(first) + " did not join before the lobby timeout");
        for (int s = first; s < kSeats; ++s) {
            const std::string alias = rt.sim.alias(s);
            auto added = rt.sim.add_player(alias, s, "", true);
            if (!added) break;
            rt.seats[static_cast<std::size_t>(s)].filled = true;
            seat_player(rt, *added, nullptr, 0, alias, s, "", metrics);
            rt.sim.set_dead_seat(s);
        }
    }
}

bool begin_turn(MatchRuntime& rt, SteadyClock::time_point now, HnsMetrics& metrics) {
    const auto turn = decision_turn(rt.sim.phase(), rt.sim.game_tick(), rt.sim.config().turnTicks);
    if (!turn) return false;
    const int key = rt.sim.game_index() * 1000 + *turn;
    if (key == rt.last_turn_key) return false;
    rt.last_turn_key = key;
    rt.turn = *turn;
    rt.turn_game = rt.sim.game_index() + 1;
    rt.turn_dispatched = now;
    const int n = std::min(static_cast<int>(rt.sim.players().size()), kSeats);
    const auto ms = now_ms(rt);
    bool awaiting = false;
    std::vector<std::pair<int, std::string>> says;
    std::vector<LlmSeatAsk> asks;
    // The reference's budget guard runs in every match: from here on prompt seats play burrow.
    if (!rt.llm) rt.llm = std::make_unique<LlmClient>(process_llm_settings(), rt.sim.config());
    if (const auto remaining = rt.llm->guard_budget(std::chrono::duration_cast<std::chrono::seconds>(now - rt.loop_start)))
        rt.writer.chat(ms, 0, sh::budget_guard_record(*turn, *remaining));
    for (int s = 0; s < n; ++s) {
        if (rt.sim.frozen_seeker(s)) continue;
        SeatState& seat = rt.seats[static_cast<std::size_t>(s)];
        const std::string last = sim::hns::last_result_text(rt.sim, s);
        switch (seat.policy.kind) {
        case PolicyKind::Manual: break;  // the seat's own mask plays
        case PolicyKind::Scripted: {
            const sh::Order order = seat.policy.teacher
                                        ? sh::teacher_seat()->order(rt.sim, rt.driver, s, *turn, sh::baseline_params(rt.sim.game_version()))
                                        : sh::baseline_order(seat.policy.baseline, rt.sim, rt.driver, s, *turn);
            rt.writer.chat(ms, s, sh::directive_record(rt.sim, s, *turn, order, last, "scripted", 0));
            remember(rt, s, order, last);
            says.emplace_back(s, order.say);
            break;
        }
        case PolicyKind::Prompt: {
            if (rt.llm->live()) {
                const Registration* r = seat.registration.current();
                const auto memory = seat_memory(rt);
                asks.push_back(LlmSeatAsk{s, r ? r->prompt : std::string(),
                                          sim::hns::seat_view_json(sim::hns::SeatViewInput{rt.sim, rt.driver, s, *turn, true, memory})});
                break;
            }
            // No credentials, a 401 earlier in the match or the budget guard: burrow at once.
            const auto outcome = resolve_prompt_turn(sh::baseline_order(sh::Baseline::Burrow, rt.sim, rt.driver, s, *turn));
            rt.sim.add_fallback_turn(s);
            metrics.fallback(rt.llm->unavailable_cause());
            rt.writer.chat(ms, 0, sh::fallback_record(rt.sim, s, *turn, rt.llm->unavailable_cause(), 1, kNoModelDetail));
            rt.writer.chat(ms, s, sh::directive_record(rt.sim, s, *turn, outcome.order, last, order_source_text(outcome.source), 0));
            remember(rt, s, outcome.order, last);
            says.emplace_back(s, outcome.order.say);
            break;
        }
        case PolicyKind::External: {
            const auto memory = seat_memory(rt);
            const std::string observation = sim::hns::seat_view_json(sim::hns::SeatViewInput{rt.sim, rt.driver, s, *turn, true, memory});
            const std::string frame = decision_frame(*turn, s, rt.sim.config().turnBudgetMs, observation);
            const protocol::ByteView bytes(reinterpret_cast<const std::uint8_t*>(frame.data()), frame.size());
            // The seat's own socket only: a decision holds its position, teammates and notes.
            if (auto holder = rt.sockets.find(seat.socket); holder != rt.sockets.end() && holder->second.peer)
                holder->second.peer->send(bytes, true);
            seat.awaiting = true;
            seat.reply.reset();
            awaiting = true;
            break;
        }
        }
    }
    if (!asks.empty()) ask_models(rt, asks, *turn, metrics, says);
    for (const auto& [s, say] : says) shout(rt, s, say);
    rt.turn_waiting = awaiting;
    return awaiting;
}

bool turn_settled_now(const MatchRuntime& rt, SteadyClock::time_point now, SteadyClock::duration budget) {
    bool all = true;
    for (const auto& seat : rt.seats)
        if (seat.awaiting && !seat.reply && seat.socket != 0) all = false;  // a departed seat is not awaited
    return all || now - rt.turn_dispatched >= budget;
}

void finish_turn(MatchRuntime& rt, SteadyClock::time_point now, HnsMetrics& metrics) {
    const auto ms = now_ms(rt);
    std::vector<std::pair<int, std::string>> says;
    for (int s = 0; s < kSeats; ++s) {
        SeatState& seat = rt.seats[static_cast<std::size_t>(s)];
        if (!seat.awaiting) continue;
        seat.awaiting = false;
        const sh::Order burrow = sh::baseline_order(sh::Baseline::Burrow, rt.sim, rt.driver, s, rt.turn);
        const Reply* reply = seat.reply ? &*seat.reply : nullptr;
        const TurnOutcome outcome = resolve_external_turn(reply, seat.has_order ? &seat.order : nullptr, burrow);
        const auto latency = std::chrono::duration_cast<std::chrono::milliseconds>((reply ? seat.reply_at : now) - rt.turn_dispatched);
        metrics.decision_latency(static_cast<double>(latency.count()) / 1000.0);
        if (outcome.rejected) rt.sim.add_orders_rejected(s);
        if (!outcome.fallback_cause.empty()) {
            rt.sim.add_fallback_turn(s);
            metrics.fallback(outcome.fallback_cause.c_str());
            const char* detail = outcome.fallback_cause == kCauseTimeout ? "no usable reply before the deadline"
                                                                         : "no JSON object in the reply";
            rt.writer.chat(ms, 0, sh::fallback_record(rt.sim, s, rt.turn, outcome.fallback_cause, 1, detail));
        }
        const std::string result = outcome.result.empty() ? sim::hns::last_result_text(rt.sim, s) : outcome.result;
        rt.writer.chat(ms, s, sh::directive_record(rt.sim, s, rt.turn, outcome.order, result, order_source_text(outcome.source),
                                                   static_cast<long long>(latency.count())));
        remember(rt, s, outcome.order, result);
        says.emplace_back(s, outcome.order.say);
        seat.reply.reset();
    }
    for (const auto& [s, say] : says) shout(rt, s, say);
    rt.turn_waiting = false;
}

void step_frame(MatchRuntime& rt, HnsMetrics& metrics) {
    const int speed = ticks_per_frame(rt.speed_index);
    for (int k = 0; k < speed; ++k) {
        if (k > 0 && (rt.sim.finished() ||
                      decision_turn(rt.sim.phase(), rt.sim.game_tick(), rt.sim.config().turnTicks).has_value()))
            break;
        const auto ms = now_ms(rt);
        const bool playing = rt.sim.phase() == GamePhase::Playing;
        if (playing) rt.driver.observe(rt.sim);
        const std::size_t n = rt.sim.players().size();
        rt.masks.resize(n);
        rt.prev.resize(n);
        for (std::size_t s = 0; s < n; ++s) {
            std::uint8_t mask = 0;
            const int slot = static_cast<int>(s);
            if (playing && !rt.sim.frozen_seeker(slot) && s < rt.seats.size()) {
                const SeatState& seat = rt.seats[s];
                if (seat.policy.kind == PolicyKind::Manual) {
                    auto it = rt.sockets.find(seat.socket);
                    mask = it != rt.sockets.end() ? it->second.mask : 0;
                } else {
                    mask = rt.driver.compile_mask(rt.sim, seat.order, slot);
                }
            }
            rt.masks[s].mask = mask;
            rt.writer.input_if_changed(ms, slot, mask);
        }
        rt.sim.step(rt.masks, rt.prev);
        rt.prev = rt.masks;
        rt.writer.hash(static_cast<std::uint32_t>(rt.sim.tick_count()), rt.sim.hash());
        metrics.ticks(1);
    }
    const char* phase = phase_text(rt.sim.phase());
    if (rt.phase_text != phase) {
        metrics.match_phase(rt.phase_text.c_str(), phase);
        rt.phase_text = phase;
    }
}

void wall_clock_stop(MatchRuntime& rt) {
    const auto ms = now_ms(rt);
    rt.writer.chat(ms, 0, sh::stop_record(rt.sim.tick_count(), "wall_clock"));
    rt.sim.force_wall_clock_stop();
    const std::size_t n = rt.sim.players().size();
    rt.masks.assign(n, sh::Input{});
    rt.prev.resize(n);
    for (std::size_t s = 0; s < n; ++s) rt.writer.input_if_changed(ms, static_cast<int>(s), 0);
    rt.sim.step(rt.masks, rt.prev);
    rt.prev = rt.masks;
    rt.writer.hash(static_cast<std::uint32_t>(rt.sim.tick_count()), rt.sim.hash());
}

}  // namespace hschool::server::hns
