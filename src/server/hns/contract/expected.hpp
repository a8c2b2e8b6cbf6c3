#pragma once
// The game's one error idiom: a value or why not (the simulation's Expected: rooms, configs and
// replays answer the same way). Done is the value of an operation that has nothing else to say.
// HTTP answers are values too, one step out: HubError for the REST, Rejection before an upgrade.
#include "sim/hns/expected.hpp"

namespace hschool::server::hns {

using sim::hns::Expected;

struct Done {};

}  // namespace hschool::server::hns
