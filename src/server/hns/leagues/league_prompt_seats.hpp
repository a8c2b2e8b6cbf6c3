#pragma once
// A league match's prompt seats (issue 33 on issue 21's client): they ask the server's language
// model every decision turn, as a live prompt seat does, on the league thread that plays the match.
// One PromptTurns per match holds the model client and what each prompt seat remembers; the first
// prompt seat asked in a turn asks for all of them in one parallel batch (and its retry), the
// others read their answer. A seat the model did not answer plays burrow with its fallback
// records; with no model configured every turn is burrow with cause no_credentials, at once.
#include <array>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "server/hns/llm/llm_client.hpp"
#include "sim/hns/seat_view.hpp"
#include "server/hns/contract/limits.hpp"
#include "sim/hns/seat_policy.hpp"

namespace hschool::server::hns {

// The register record's policy text of a league's prompt seat (its kind is "llm").
inline constexpr const char* kLeaguePromptPolicy = "prompt";

// How one prompt seat's turns went in its match.
struct PromptSeatTally {
    int model_turns = 0, fallback_turns = 0;
    std::vector<std::string> causes;  // fallback causes, in the order they first came
};

class PromptTurns {
public:
    // `prompts[s]`: slot s's guidance; none for a slot that is not a prompt seat. `stop()` true:
    // the league is stopping; no more asking, the waits end within kHttpBatchStopPoll.
    PromptTurns(const LlmSettings& settings, const sim::hns::GameConfig& config, std::array<std::optional<std::string>, kSeats> prompts,
                std::function<bool()> stop);

    // The match's thread only.
    sim::hns::SeatTurn turn_of(const sim::hns::Sim& sim, const sim::hns::Driver& driver, int slot, int turn,
                               const sim::hns::BaselineParams& params);
    bool prompt_slot(int slot) const { return slot >= 0 && slot < kSeats && prompts_[static_cast<std::size_t>(slot)].has_value(); }
    const PromptSeatTally& tally(int slot) const { return tallies_[static_cast<std::size_t>(slot)]; }

private:
    void decide_all(const sim::hns::Sim& sim, const sim::hns::Driver& driver, int turn, const sim::hns::BaselineParams& params);
    void ask_model(const sim::hns::Sim& sim, const sim::hns::Driver& driver, int turn, const sim::hns::BaselineParams& params,
                   const std::vector<int>& slots, std::vector<std::string> first_records);
    void settle(int slot, sim::hns::SeatTurn decided, const std::string& result);
    void note_cause(int slot, std::string_view cause);  // once per cause, in the order they came

    LlmClient client_;
    std::array<std::optional<std::string>, kSeats> prompts_;
    std::function<bool()> stop_;
    std::chrono::steady_clock::time_point started_;
    std::array<sim::hns::SeatMemory, kSeats> memory_{};
    std::array<sim::hns::Order, kSeats> orders_{};  // memory_[s].last_order points here
    std::array<std::optional<sim::hns::SeatTurn>, kSeats> decided_;  // this turn's, until its seat takes it
    std::array<PromptSeatTally, kSeats> tallies_{};
    int decided_key_ = -1;  // game * 1000 + turn of the batch in decided_
};

// A prompt seat as run_match plays it: it asks its match's PromptTurns.
class LeaguePromptSeat final : public sim::hns::SeatPolicy {
public:
    explicit LeaguePromptSeat(std::shared_ptr<PromptTurns> turns) : turns_(std::move(turns)) {}
    std::string_view name() const override { return kLeaguePromptPolicy; }
    std::string_view kind() const override { return "llm"; }
    sim::hns::Order order(const sim::hns::Sim& sim, const sim::hns::Driver& driver, int slot, int turn,
                          const sim::hns::BaselineParams& params) const override {
        return decide(sim, driver, slot, turn, params).order;
    }
    sim::hns::SeatTurn decide(const sim::hns::Sim& sim, const sim::hns::Driver& driver, int slot, int turn,
                              const sim::hns::BaselineParams& params) const override {
        return turns_->turn_of(sim, driver, slot, turn, params);
    }

private:
    std::shared_ptr<PromptTurns> turns_;  // per match, used from its thread only
};

}  // namespace hschool::server::hns
