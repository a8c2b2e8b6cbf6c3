#pragma once
// A live match's decision turns (spec §2.4), on the match thread: at a turn boundary scripted seats
// get their baseline's order, prompt seats their model's (one parallel batch, or burrow with its
// fallback records), external seats a decision frame whose reply (or the deadline) settles the
// turn; every order is recorded and remembered for the seat's next view.
#include <array>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "server/hns/contract/decisions.hpp"
#include "server/hns/contract/hns_metrics.hpp"
#include "server/hns/contract/limits.hpp"
#include "server/hns/live/match_event.hpp"
#include "server/hns/live/match_game.hpp"
#include "server/hns/live/match_seats.hpp"
#include "server/hns/llm/llm_client.hpp"
#include "sim/hns/seat_view.hpp"

namespace hschool::server::hns {

class MatchTurns {
public:
    // `stopping()` true: the match is asked to stop, so a wait for the model ends early.
    explicit MatchTurns(std::function<bool()> stopping) : stopping_(std::move(stopping)) {}

    // At a turn boundary, once: every seat's order for this turn, or a decision frame to each live
    // external seat. True when external seats are now awaited. `elapsed`: the match's wall clock,
    // for the model's budget guard.
    bool begin(MatchGame& game, const MatchSeats& seats, SteadyClock::time_point now, std::chrono::seconds elapsed, HnsMetrics& metrics);
    bool waiting() const { return waiting_; }
    SteadyClock::time_point dispatched() const { return dispatched_; }
    // A seated player's text while a turn waits: its seat's reply, when it is this turn's and in time.
    void reply(const MatchGame& game, const MatchSeats& seats, int socket, int slot, const std::string& text, SteadyClock::time_point at);
    // Every awaited seat has a counting reply (a departed seat is not awaited), or `budget` has passed.
    bool settled(const MatchSeats& seats, SteadyClock::time_point now, SteadyClock::duration budget) const;
    // Applies the replies (or fallbacks) of the awaited seats.
    void finish(MatchGame& game, SteadyClock::time_point now, HnsMetrics& metrics);

    // The seat's standing order (its cog's mask is compiled from it every tick).
    const sim::hns::Order& order(int slot) const { return seats_[static_cast<std::size_t>(slot)].order; }
    // After a restart: no turn, no orders, and a new model client at the next turn (a 401 turns
    // the model off for one game only).
    void reset();

private:
    struct SeatDecision {
        sim::hns::Order order;
        bool has_order = false;
        sim::hns::SeatMemory memory;
        // The turn being decided:
        bool awaiting = false;
        std::optional<Reply> reply;
        SteadyClock::time_point reply_at{};
    };

    void remember(int slot, const sim::hns::Order& order, const std::string& result);
    // What every seat remembers, as its view reads it.
    std::array<sim::hns::SeatMemory, kSeats> memory() const;
    void ask_models(MatchGame& game, const std::vector<LlmSeatAsk>& asks, HnsMetrics& metrics, std::vector<std::pair<int, std::string>>& says);

    std::array<SeatDecision, kSeats> seats_{};
    bool waiting_ = false;  // external seats are awaited
    int turn_ = -1;
    int turn_game_ = 0;
    SteadyClock::time_point dispatched_{};
    int last_turn_key_ = -1;  // game·1000 + turn of the last dispatched turn
    // Prompt seats' model client, made at the first turn (a restart drops it).
    std::unique_ptr<LlmClient> llm_;
    std::function<bool()> stopping_;
};

}  // namespace hschool::server::hns
