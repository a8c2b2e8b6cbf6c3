#include "server/hns/leagues/league_prompt_seats.hpp"

#include <algorithm>

#include "server/hns/contract/decisions.hpp"
#include "sim/hns/baselines.hpp"
#include "sim/hns/records.hpp"

namespace hschool::server::hns {

namespace sh = sim::hns;

PromptTurns::PromptTurns(const LlmSettings& settings, const sh::GameConfig& config, std::array<std::optional<std::string>, kSeats> prompts,
                         std::function<bool()> stop)
    : client_(settings, config), prompts_(std::move(prompts)), stop_(std::move(stop)), started_(std::chrono::steady_clock::now()) {}

sh::SeatTurn PromptTurns::turn_of(const sh::Sim& sim, const sh::Driver& driver, int slot, int turn, const sh::BaselineParams& params) {
    // run_match asks every seat of a turn before it steps: the first prompt seat asked decides them all.
    const int key = sim.game_index() * 1000 + turn;
    if (key != decided_key_) {
        decided_key_ = key;
        decide_all(sim, driver, turn, params);
    }
    auto& mine = decided_[static_cast<std::size_t>(slot)];
    if (!mine) {  // a seat the batch did not hold (not a prompt slot): it plays burrow, as a script
        sh::SeatTurn scripted;
        scripted.order = sh::baseline_order(sh::Baseline::Burrow, sim, driver, slot, turn, params);
        return scripted;
    }
    sh::SeatTurn out = std::move(*mine);
    mine.reset();
    return out;
}

void PromptTurns::decide_all(const sh::Sim& sim, const sh::Driver& driver, int turn, const sh::BaselineParams& params) {
    std::vector<int> slots;
    for (int s = 0; s < kSeats && s < static_cast<int>(sim.players().size()); ++s)
        if (prompt_slot(s) && !sim.frozen_seeker(s)) slots.push_back(s);
    if (slots.empty()) return;
    std::vector<std::string> first_records;  // written before the first seat's directive
    // The reference's budget guard, on the match's own wall clock: from here on, burrow.
    const auto elapsed = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started_);
    if (const auto remaining = client_.guard_budget(elapsed)) first_records.push_back(sh::budget_guard_record(turn, *remaining));
    if (client_.live() && !(stop_ && stop_())) return ask_model(sim, driver, turn, params, slots, std::move(first_records));
    // No model (none configured, a 401 earlier in the match, the guard, a stop): burrow at once.
    const char* cause = client_.unavailable_cause();
    for (const int s : slots) {
        sh::SeatTurn t;
        t.order = resolve_prompt_turn(sh::baseline_order(sh::Baseline::Burrow, sim, driver, s, turn, params)).order;
        t.source = order_source_text(OrderSource::Fallback);
        if (s == slots.front()) t.records = std::move(first_records);
        t.records.push_back(sh::fallback_record(sim, s, turn, cause, 1, kNoModelDetail));
        note_cause(s, cause);
        settle(s, std::move(t), sim::hns::last_result_text(sim, s));
    }
}

void PromptTurns::ask_model(const sh::Sim& sim, const sh::Driver& driver, int turn, const sh::BaselineParams& params,
                            const std::vector<int>& slots, std::vector<std::string> first_records) {
    std::vector<LlmSeatAsk> asks;
    for (const int s : slots)
        asks.push_back(LlmSeatAsk{s, *prompts_[static_cast<std::size_t>(s)],
                                  sim::hns::seat_view_json(sim::hns::SeatViewInput{sim, driver, s, turn, true, memory_})});
    const LlmTurnResult result = client_.run_turn(asks, sim::hns::order_context(sim), stop_);
    std::array<std::vector<std::string>, kSeats> records;
    records[static_cast<std::size_t>(slots.front())] = std::move(first_records);
    for (const LlmFallbackNote& note : result.notes) {
        if (note.slot < 0 || note.slot >= kSeats) continue;
        records[static_cast<std::size_t>(note.slot)].push_back(sh::fallback_record(sim, note.slot, turn, note.cause, note.attempt, note.detail));
        note_cause(note.slot, note.cause);
    }
    for (const LlmSeatAnswer& answer : result.answers) {
        const int s = answer.slot;
        if (s < 0 || s >= kSeats) continue;
        const sh::Order burrow = sh::baseline_order(sh::Baseline::Burrow, sim, driver, s, turn, params);
        sh::SeatTurn t;
        t.order = burrow;
        t.source = order_source_text(OrderSource::Fallback);
        std::string result_text = sim::hns::last_result_text(sim, s);
        if (answer.ok) {
            t.order = sh::resolve_reply(memory_[static_cast<std::size_t>(s)].last_order, answer.order, burrow, t.rejected);
            if (t.rejected) result_text = sh::kResultUnknownObject;
            t.source = kSourceLlm;
            t.latency_ms = answer.latency_ms;
        }
        t.records = std::move(records[static_cast<std::size_t>(s)]);
        settle(s, std::move(t), result_text);
    }
}

void PromptTurns::note_cause(int slot, std::string_view cause) {
    auto& causes = tallies_[static_cast<std::size_t>(slot)].causes;
    if (std::find(causes.begin(), causes.end(), cause) == causes.end()) causes.emplace_back(cause);
}

void PromptTurns::settle(int slot, sh::SeatTurn decided, const std::string& result) {
    const auto s = static_cast<std::size_t>(slot);
    // What the seat's next view reports: its standing order, that order's result, its notes and radio.
    orders_[s] = decided.order;
    sim::hns::SeatMemory& m = memory_[s];
    m.last_order = &orders_[s];
    m.last_result = result;
    if (!decided.order.notes.empty()) m.notes = decided.order.notes;
    if (!decided.order.radio.empty()) m.radio = decided.order.radio;
    ++(decided.source == kSourceLlm ? tallies_[s].model_turns : tallies_[s].fallback_turns);
    decided_[s] = std::move(decided);
}

}  // namespace hschool::server::hns
