#pragma once
// How far a point is from a rect, for the object rules and the baselines that place things by it.
#include "sim/hns/room.hpp"

namespace hschool::sim::hns {

// Squared distance from a point to the nearest pixel of the rect; 0 inside.
inline int rect_dist_sq(const Rect& r, int px, int py) {
    int dx = 0, dy = 0;
    if (px < r.x) dx = r.x - px;
    else if (px >= r.x + r.w) dx = px - (r.x + r.w - 1);
    if (py < r.y) dy = r.y - py;
    else if (py >= r.y + r.h) dy = py - (r.y + r.h - 1);
    return dx * dx + dy * dy;
}

}  // namespace hschool::sim::hns
