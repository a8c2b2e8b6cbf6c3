#pragma once
// The `teacher` league built-in (issue 41): the training bridge's teacher as a seat. Each turn it
// takes the burrow baseline's order, finds the nearest entry of the seat's order catalog (as the
// bridge's `teacher` answers) and plays that entry, as a numeric policy imitating burrow would.
#include <memory>

#include "sim/hns/seat_policy.hpp"

namespace hschool::sim::hns {

std::shared_ptr<const SeatPolicy> teacher_seat();

}  // namespace hschool::sim::hns
