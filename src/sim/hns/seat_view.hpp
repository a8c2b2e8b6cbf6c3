#pragma once
// The seat view (spec §2.5; the reference's decide.nim seatViewJson at 319d431): everything one
// seat may know at a decision turn, as the JSON text the reference sends — the observation of
// external, prompt and manual seats, and what a training bridge encodes per decision. Pure: it
// reads the sim, the driver's enemy memory and what the decision engine remembers per seat; no
// clock, no I/O, no server.
#include <boost/json/object.hpp>
#include <span>
#include <string>

#include "sim/hns/driver.hpp"
#include "sim/hns/orders.hpp"
#include "sim/hns/sim.hpp"

namespace hschool::sim::hns {

// What the decision engine remembers about one seat between turns (the reference's DecisionEngine rows).
struct SeatMemory {
    const Order* last_order = nullptr;  // the standing order; null until the seat has one
    std::string last_result;                      // reported with it, e.g. "unknown_object"; "" if none
    std::string radio;  // the last non-empty radio line this seat sent its team (teammates read it)
    std::string notes;  // the seat's last non-empty notes (echoed to an external seat only)
};

struct SeatViewInput {
    const Sim& sim;
    const Driver& driver;  // its enemy memory fills seen_enemies
    int seat = 0;                    // the slot; a seat with no cog gets "{}"
    int turn = 0;
    bool external = false;               // external seats also get your_notes
    std::span<const SeatMemory> memory;  // indexed by slot; missing rows read as empty
};

// A heard shout's reported position strays at most this far from the true spot.
inline constexpr int kShoutJitterPx = 20;

// Where a listener is told a shout came from (the reference's shoutHeardAt): the true spot moved
// by a hash of the shout's own (tick, x, y), clamped to the board. No RNG stream: replays agree.
Point shout_heard_at(const Shout& shout);

// Every id a seat's order may name in this match's room (what an order is checked against).
OrderContext order_context(const Sim& sim);
// The seat's last action result as its directive and its next view report it ("" before any).
std::string last_result_text(const Sim& sim, int slot);

// The seat view object in the reference's key order (empty for a seat with no cog); what the order
// catalog and the numeric view read.
boost::json::object seat_view_object(const SeatViewInput& in);
// The seat view object, serialized compactly with the reference's key order and number format.
std::string seat_view_json(const SeatViewInput& in);

}  // namespace hschool::sim::hns
