#pragma once
// The decision observation (spec §2.5; the reference's decide.nim seatViewJson at 319d431):
// everything one seat may know at a decision turn, as the JSON text the reference sends. Pure: it
// reads the sim, the driver's enemy memory and what the server remembers per seat; no clock, no I/O.
#include <span>
#include <string>

#include "sim/hns/driver.hpp"
#include "sim/hns/orders.hpp"
#include "sim/hns/sim.hpp"

namespace hschool::server::hns {

// What the server remembers about one seat between turns (the reference's DecisionEngine rows).
struct SeatMemory {
    const sim::hns::Order* last_order = nullptr;  // the standing order; null until the seat has one
    std::string last_result;                      // reported with it, e.g. "unknown_object"; "" if none
    std::string radio;  // the last non-empty radio line this seat sent its team (teammates read it)
    std::string notes;  // the seat's last non-empty notes (echoed to an external seat only)
};

struct ObservationInput {
    const sim::hns::Sim& sim;
    const sim::hns::Driver& driver;  // its enemy memory fills seen_enemies
    int seat = 0;                    // the slot; a seat with no cog gets "{}"
    int turn = 0;
    bool external = false;               // external seats also get your_notes
    std::span<const SeatMemory> memory;  // indexed by slot; missing rows read as empty
};

// A heard shout's reported position strays at most this far from the true spot.
inline constexpr int kShoutJitterPx = 20;

// Where a listener is told a shout came from (the reference's shoutHeardAt): the true spot moved
// by a hash of the shout's own (tick, x, y), clamped to the board. No RNG stream: replays agree.
sim::hns::Point shout_heard_at(const sim::hns::Shout& shout);

// Every id a seat's order may name in this match's room (what an order is checked against).
sim::hns::OrderContext order_context(const sim::hns::Sim& sim);
// The seat's last action result as its directive and its next view report it ("" before any).
std::string last_result_text(const sim::hns::Sim& sim, int slot);

// The observation object, serialized compactly with the reference's key order and number format.
std::string observation_json(const ObservationInput& in);

}  // namespace hschool::server::hns
