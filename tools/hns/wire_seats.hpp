#pragma once
// builtin:random over the wire (issue 33): a league seat program plays the random reference seat
// as an external seat, drawing each decision's order exactly as the headless RandomSeat does
// (sim/hns/reference_seats.hpp: splitmix64 of the match seed, game, slot, turn and draw) from what
// the decision's observation tells (the objects with their locks, the room's pockets, the role).
// Pure: no sockets.
#include <cstdint>
#include <optional>
#include <string>

namespace hschool::tools::hns {

// The order JSON for one {"type":"decision",...} frame; nothing for a frame that is not one.
std::optional<std::string> random_order_json(const std::string& decision, std::int64_t seed);

}  // namespace hschool::tools::hns
