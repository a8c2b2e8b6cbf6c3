#pragma once
// One episode as the reference's training bridge plays it (numeric_bridge.nim at 319d431), without
// its JSON-lines I/O: six trusted external seats join, the first game starts at once, and the sim
// runs until a decision turn; then each live seat (a frozen seeker is not) is asked in slot order,
// and once all have answered the decision engine installs their orders (an unusable reply keeps
// the standing order, else plays burrow) and the sim runs to the next turn. seat_view() is the
// view the bridge hands the current seat. The golden seat-view test replays the reference's
// transcripts through it; `hschool-hns bridge` (bridge_session.hpp) drives it the same way. With a
// replay, every tick's masks and hash, each turn's directives and the result are written as a
// match's are, after a "start" record that tells a re-stepping sim the game began without a lobby.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/hns/constants.hpp"
#include "sim/hns/driver.hpp"
#include "sim/hns/orders.hpp"
#include "sim/hns/replay.hpp"
#include "sim/hns/seat_view.hpp"
#include "sim/hns/sim.hpp"

namespace hschool::sim::hns {

// The bridge's fixed short match (its reset): prepTurns 2, huntTurns 3, two games, no start wait,
// no game-over pause, fast mode; every other key at its default. The room is still to resolve.
GameConfig bridge_config(std::int64_t seed);

class BridgeEpisode {
public:
    // `config` must carry its room (resolve_room_spec). Joins the six seats, starts the first game
    // and runs to the first decision; `record` keeps a replay of it (replay()).
    static Expected<BridgeEpisode> create(const GameConfig& config, bool record = false);

    bool finished() const { return finished_; }
    // The seat asked now, and the turn it decides (the game tick over turnTicks).
    int seat() const { return pending_.empty() ? -1 : pending_[position_]; }
    int turn() const;
    int decision() const { return decision_; }
    // What the current seat is shown: the seat view with its notes (an external seat's).
    std::string seat_view() const;
    // The same view as a JSON object, for the order catalog and the numeric view.
    boost::json::object seat_view_object() const;
    // The burrow baseline's order for the current seat this turn (the bridge's teacher).
    Order teacher_order() const;
    // The current seat's reply (JSON text). The last seat of a turn runs the turn and the sim to
    // the next decision. Nothing happens once finished.
    void answer(std::string_view reply);

    const Sim& sim() const { return sim_; }
    const Driver& driver() const { return driver_; }
    // The COWLDHNS bytes so far (whole once finished); empty without `record`.
    std::string replay() const { return writer_ ? writer_->bytes() : std::string(); }

private:
    BridgeEpisode(Sim sim);
    void record_start();
    void step_sim(std::vector<Input> inputs);
    void drive_until_decision();
    void run_turn();
    Order burrow_for(int slot, int turn) const;

    Sim sim_;
    Driver driver_;
    std::array<Order, kSeats> orders_{};
    std::array<bool, kSeats> haveOrder_{};
    std::array<SeatMemory, kSeats> memory_{};  // lastResult, radio, notes; last_order -> orders_
    std::array<std::string, kSeats> replies_{};
    std::vector<Input> previous_;
    std::vector<int> pending_;
    std::size_t position_ = 0;
    int lastTurnKey_ = -1;
    int lastObservedTick_ = -1;
    int decision_ = 0;
    bool finished_ = false;
    std::optional<ReplayWriter> writer_;
};

}  // namespace hschool::sim::hns
