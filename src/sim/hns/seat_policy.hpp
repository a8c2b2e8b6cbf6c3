#pragma once
// A scripted seat of a headless match as an object: the order each decision turn and the mask each
// tick. run_match plays the two published baselines without one (MatchOptions::seats); a policy in
// MatchOptions::policies plays that seat instead (reference_seats.hpp: idle, random).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/hns/baselines.hpp"
#include "sim/hns/driver.hpp"
#include "sim/hns/orders.hpp"
#include "sim/hns/sim.hpp"

namespace hschool::sim::hns {

// One seat's decision turn as its directive record tells it. A script's is plain ("scripted"); a
// prompt seat's says whether its model answered ("llm", with the batch's latency) or burrow played
// instead ("fallback"), and carries the records written before the directive (fallback, budget guard).
struct SeatTurn {
    Order order;
    std::string source = "scripted";   // scripted, llm or fallback: the directive's source and the turn counts
    long long latency_ms = 0;
    std::vector<std::string> records;  // chat records (slot 0) written before the directive
    bool rejected = false;             // the order named an unknown object: counted, result unknown_object
};

class SeatPolicy {
public:
    virtual ~SeatPolicy() = default;
    // The register record's policy and baseline text.
    virtual std::string_view name() const = 0;
    // Called from one match's thread only; must draw nothing from the sim (its RNG is the deal's).
    virtual Order order(const Sim& sim, const Driver& driver, int slot, int turn, const BaselineParams& params) const = 0;
    // The register record's kind and the results' policyKinds: "scripted", or "llm" for a prompt seat.
    virtual std::string_view kind() const { return "scripted"; }
    // The turn with its provenance; a script's is its order, plainly.
    virtual SeatTurn decide(const Sim& sim, const Driver& driver, int slot, int turn, const BaselineParams& params) const {
        SeatTurn t;
        t.order = order(sim, driver, slot, turn, params);
        return t;
    }
    // This tick's mask; the default compiles the order with the seats' driver, as the baselines do.
    virtual std::uint8_t mask(const Sim& sim, Driver& driver, const Order& order, int slot) const {
        return driver.compile_mask(sim, order, slot);
    }
};

}  // namespace hschool::sim::hns
