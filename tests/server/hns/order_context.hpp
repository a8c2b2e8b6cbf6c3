#pragma once
// The order context the reply tests read orders against: box1, pan1 and ramp1 (a ramp), one anchor.
#include <string>

#include "sim/hns/orders.hpp"

namespace hschool::server::hns {

inline sim::hns::OrderContext three_object_context(std::string anchor) {
    sim::hns::OrderContext ctx;
    ctx.objectIds = {"box1", "pan1", "ramp1"};
    ctx.rampIds = {"ramp1"};
    ctx.anchorIds = {std::move(anchor)};
    return ctx;
}

}  // namespace hschool::server::hns
