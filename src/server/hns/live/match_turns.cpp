#include "server/hns/live/match_turns.hpp"

#include <algorithm>

#include "server/hns/llm/llm_settings.hpp"
#include "sim/hns/baselines.hpp"
#include "sim/hns/records.hpp"
#include "sim/hns/teacher_seat.hpp"

namespace hschool::server::hns {

namespace sh = sim::hns;

void MatchTurns::remember(int slot, const sh::Order& order, const std::string& result) {
    SeatDecision& seat = seats_[static_cast<std::size_t>(slot)];
    seat.order = order;
    seat.has_order = true;
    seat.memory.last_result = result;
    if (!order.notes.empty()) seat.memory.notes = order.notes;
    if (!order.radio.empty()) seat.memory.radio = order.radio;
}

std::array<sh::SeatMemory, kSeats> MatchTurns::memory() const {
    std::array<sh::SeatMemory, kSeats> memory;
    for (std::size_t i = 0; i < memory.size(); ++i) {
        memory[i] = seats_[i].memory;
        memory[i].last_order = seats_[i].has_order ? &seats_[i].order : nullptr;
    }
    return memory;
}

// The prompt seats' turn: one parallel batch (and a retry) on this thread, then each seat's order
// or burrow, with the fallback records, the directive and the llm/fallback turn counts.
void MatchTurns::ask_models(MatchGame& game, const std::vector<LlmSeatAsk>& asks, HnsMetrics& metrics,
                            std::vector<std::pair<int, std::string>>& says) {
    sh::Sim& sim = game.sim();
    const LlmTurnResult result = llm_->run_turn(asks, sh::order_context(sim), stopping_);
    const auto ms = game.now_ms();
    for (const LlmFallbackNote& note : result.notes) {
        metrics.fallback(note.cause.c_str());
        game.replay().chat(ms, 0, sh::fallback_record(sim, note.slot, turn_, note.cause, note.attempt, note.detail));
    }
    for (const LlmSeatAnswer& answer : result.answers) {
        const int s = answer.slot;
        SeatDecision& seat = seats_[static_cast<std::size_t>(s)];
        const sh::Order burrow = sh::baseline_order(sh::Baseline::Burrow, sim, game.driver(), s, turn_);
        sh::Order order = burrow;
        std::string result_text = sh::last_result_text(sim, s);
        if (answer.ok) {
            bool rejected = false;
            order = sh::resolve_reply(seat.has_order ? &seat.order : nullptr, answer.order, burrow, rejected);
            if (rejected) {
                sim.add_orders_rejected(s);
                result_text = sh::kResultUnknownObject;
            }
            sim.add_llm_turn(s);
            metrics.decision_latency(static_cast<double>(answer.latency_ms) / 1000.0);
        } else {
            sim.add_fallback_turn(s);
        }
        game.replay().chat(ms, s, sh::directive_record(sim, s, turn_, order, result_text, answer.ok ? kSourceLlm : "fallback",
                                                       answer.ok ? answer.latency_ms : 0));
        remember(s, order, result_text);
        says.emplace_back(s, order.say);
    }
}

bool MatchTurns::begin(MatchGame& game, const MatchSeats& seats, SteadyClock::time_point now, std::chrono::seconds elapsed,
                       HnsMetrics& metrics) {
    sh::Sim& sim = game.sim();
    const auto turn = decision_turn(sim.phase(), sim.game_tick(), sim.config().turnTicks);
    if (!turn) return false;
    const int key = sim.game_index() * 1000 + *turn;
    if (key == last_turn_key_) return false;
    last_turn_key_ = key;
    turn_ = *turn;
    turn_game_ = sim.game_index() + 1;
    dispatched_ = now;
    const int n = std::min(static_cast<int>(sim.players().size()), kSeats);
    const auto ms = game.now_ms();
    bool awaiting = false;
    std::vector<std::pair<int, std::string>> says;
    std::vector<LlmSeatAsk> asks;
    // The reference's budget guard runs in every match: from here on prompt seats play burrow.
    if (!llm_) llm_ = std::make_unique<LlmClient>(process_llm_settings(), sim.config());
    if (const auto remaining = llm_->guard_budget(elapsed)) game.replay().chat(ms, 0, sh::budget_guard_record(*turn, *remaining));
    for (int s = 0; s < n; ++s) {
        if (sim.frozen_seeker(s)) continue;
        const MatchSeat& seat = seats.seat(s);
        SeatDecision& decision = seats_[static_cast<std::size_t>(s)];
        const std::string last = sh::last_result_text(sim, s);
        switch (seat.policy.kind) {
        case PolicyKind::Manual: break;  // the seat's own mask plays
        case PolicyKind::Scripted: {
            const sh::Order order = seat.policy.teacher
                                        ? sh::teacher_seat()->order(sim, game.driver(), s, *turn, sh::baseline_params(sim.game_version()))
                                        : sh::baseline_order(seat.policy.baseline, sim, game.driver(), s, *turn);
            game.replay().chat(ms, s, sh::directive_record(sim, s, *turn, order, last, "scripted", 0));
            remember(s, order, last);
            says.emplace_back(s, order.say);
            break;
        }
        case PolicyKind::Prompt: {
            if (llm_->live()) {
                const Registration* r = seat.registration.current();
                const auto memory_now = memory();
                asks.push_back(LlmSeatAsk{s, r ? r->prompt : std::string(),
                                          sh::seat_view_json(sh::SeatViewInput{sim, game.driver(), s, *turn, true, memory_now})});
                break;
            }
            // No credentials, a 401 earlier in the match or the budget guard: burrow at once.
            const auto outcome = resolve_prompt_turn(sh::baseline_order(sh::Baseline::Burrow, sim, game.driver(), s, *turn));
            sim.add_fallback_turn(s);
            metrics.fallback(llm_->unavailable_cause());
            game.replay().chat(ms, 0, sh::fallback_record(sim, s, *turn, llm_->unavailable_cause(), 1, kNoModelDetail));
            game.replay().chat(ms, s, sh::directive_record(sim, s, *turn, outcome.order, last, order_source_text(outcome.source), 0));
            remember(s, outcome.order, last);
            says.emplace_back(s, outcome.order.say);
            break;
        }
        case PolicyKind::External: {
            const auto memory_now = memory();
            const std::string observation = sh::seat_view_json(sh::SeatViewInput{sim, game.driver(), s, *turn, true, memory_now});
            const std::string frame = decision_frame(*turn, s, sim.config().turnBudgetMs, observation);
            const protocol::ByteView bytes(reinterpret_cast<const std::uint8_t*>(frame.data()), frame.size());
            // The seat's own socket only: a decision holds its position, teammates and notes.
            if (auto* connection = seats.connection_of(s)) connection->send(bytes, true);
            decision.awaiting = true;
            decision.reply.reset();
            awaiting = true;
            break;
        }
        }
    }
    if (!asks.empty()) ask_models(game, asks, metrics, says);
    for (const auto& [s, say] : says) game.shout(s, say);
    waiting_ = awaiting;
    return awaiting;
}

void MatchTurns::reply(const MatchGame& game, const MatchSeats& seats, int socket, int slot, const std::string& text,
                       SteadyClock::time_point at) {
    if (slot < 0 || !waiting_) return;
    SeatDecision& decision = seats_[static_cast<std::size_t>(slot)];
    if (seats.seat(slot).socket != socket || !decision.awaiting || decision.reply) return;
    Reply parsed = parse_reply(text, turn_game_, turn_, sh::order_context(game.sim()));
    if (parsed.status == ReplyStatus::Ignored || parsed.status == ReplyStatus::TooLong) return;
    const auto dispatched_ms = std::chrono::duration_cast<std::chrono::milliseconds>(dispatched_.time_since_epoch()).count();
    const auto arrival_ms = std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count();
    if (!reply_in_time(dispatched_ms, arrival_ms, game.sim().config().turnBudgetMs)) return;
    decision.reply = std::move(parsed);
    decision.reply_at = at;
}

bool MatchTurns::settled(const MatchSeats& seats, SteadyClock::time_point now, SteadyClock::duration budget) const {
    bool all = true;
    for (int s = 0; s < kSeats; ++s) {
        const SeatDecision& decision = seats_[static_cast<std::size_t>(s)];
        if (decision.awaiting && !decision.reply && seats.seat(s).socket != 0) all = false;  // a departed seat is not awaited
    }
    return all || now - dispatched_ >= budget;
}

void MatchTurns::finish(MatchGame& game, SteadyClock::time_point now, HnsMetrics& metrics) {
    sh::Sim& sim = game.sim();
    const auto ms = game.now_ms();
    std::vector<std::pair<int, std::string>> says;
    for (int s = 0; s < kSeats; ++s) {
        SeatDecision& seat = seats_[static_cast<std::size_t>(s)];
        if (!seat.awaiting) continue;
        seat.awaiting = false;
        const sh::Order burrow = sh::baseline_order(sh::Baseline::Burrow, sim, game.driver(), s, turn_);
        const Reply* reply = seat.reply ? &*seat.reply : nullptr;
        const TurnOutcome outcome = resolve_external_turn(reply, seat.has_order ? &seat.order : nullptr, burrow);
        const auto latency = std::chrono::duration_cast<std::chrono::milliseconds>((reply ? seat.reply_at : now) - dispatched_);
        metrics.decision_latency(static_cast<double>(latency.count()) / 1000.0);
        if (outcome.rejected) sim.add_orders_rejected(s);
        if (!outcome.fallback_cause.empty()) {
            sim.add_fallback_turn(s);
            metrics.fallback(outcome.fallback_cause.c_str());
            const char* detail = outcome.fallback_cause == kCauseTimeout ? "no usable reply before the deadline"
                                                                         : "no JSON object in the reply";
            game.replay().chat(ms, 0, sh::fallback_record(sim, s, turn_, outcome.fallback_cause, 1, detail));
        }
        const std::string result = outcome.result.empty() ? sh::last_result_text(sim, s) : outcome.result;
        game.replay().chat(ms, s, sh::directive_record(sim, s, turn_, outcome.order, result, order_source_text(outcome.source),
                                                       static_cast<long long>(latency.count())));
        remember(s, outcome.order, result);
        says.emplace_back(s, outcome.order.say);
        seat.reply.reset();
    }
    for (const auto& [s, say] : says) game.shout(s, say);
    waiting_ = false;
}

void MatchTurns::reset() {
    seats_ = {};
    waiting_ = false;
    last_turn_key_ = -1;
    llm_.reset();
}

}  // namespace hschool::server::hns
