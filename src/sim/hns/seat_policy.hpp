#pragma once
// A scripted seat of a headless match as an object: the order each decision turn and the mask each
// tick. run_match plays the two published baselines without one (MatchOptions::seats); a policy in
// MatchOptions::policies plays that seat instead (reference_seats.hpp: idle, random).
#include <cstdint>
#include <string_view>

#include "sim/hns/baselines.hpp"
#include "sim/hns/driver.hpp"
#include "sim/hns/orders.hpp"
#include "sim/hns/sim.hpp"

namespace hschool::sim::hns {

class SeatPolicy {
public:
    virtual ~SeatPolicy() = default;
    // The register record's policy and baseline text.
    virtual std::string_view name() const = 0;
    // Called from one match's thread only; must draw nothing from the sim (its RNG is the deal's).
    virtual Order order(const Sim& sim, const Driver& driver, int slot, int turn, const BaselineParams& params) const = 0;
    // This tick's mask; the default compiles the order with the seats' driver, as the baselines do.
    virtual std::uint8_t mask(const Sim& sim, Driver& driver, const Order& order, int slot) const {
        return driver.compile_mask(sim, order, slot);
    }
};

}  // namespace hschool::sim::hns
