// Tick step 9 (§3.10): the recursive shadowcast over the 8 px grid, the float cone and bubble
// filter, and target visibility. The ONLY hns file with floats, as in the reference: the same
// expressions in the same order with the same libm calls, and no FP contraction.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numbers>

#include "sim/hns/constants.hpp"
#include "sim/hns/sim.hpp"

namespace hschool::sim::hns {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr int kOctants[8][4] = {{1, 0, 0, 1},   {0, 1, 1, 0},   {0, -1, 1, 0}, {-1, 0, 0, 1},
                                {-1, 0, 0, -1}, {0, -1, -1, 0}, {0, 1, -1, 0}, {1, 0, 0, -1}};

void cast_octant(const std::vector<char>& blocked, std::vector<char>& visible, int ocx, int ocy, int row,
                 double startSlope, double endSlope, const int* t) {
    if (startSlope < endSlope) return;
    double start = startSlope;
    bool rowBlocked = false;
    double newStart = 0.0;
    const int maxDist = kFovGridW + kFovGridH;
    for (int dist = row; dist <= maxDist; ++dist) {
        if (rowBlocked) break;
        bool anyInside = false;
        for (int dx = -dist; dx <= 0; ++dx) {
            const int dy = -dist;
            const double lSlope = (static_cast<double>(dx) - 0.5) / (static_cast<double>(dy) + 0.5);
            const double rSlope = (static_cast<double>(dx) + 0.5) / (static_cast<double>(dy) - 0.5);
            if (start < rSlope) continue;
            if (endSlope > lSlope) break;
            const int cx = ocx + dx * t[0] + dy * t[1];
            const int cy = ocy + dx * t[2] + dy * t[3];
            if (cx < 0 || cy < 0 || cx >= kFovGridW || cy >= kFovGridH) continue;
            anyInside = true;
            const int index = cy * kFovGridW + cx;
            visible[index] = 1;
            if (rowBlocked) {
                if (blocked[index]) {
                    newStart = rSlope;
                } else {
                    rowBlocked = false;
                    start = newStart;
                }
            } else if (blocked[index]) {
                rowBlocked = true;
                cast_octant(blocked, visible, ocx, ocy, dist + 1, start, lSlope, t);
                newStart = rSlope;
            }
        }
        if (!anyInside && dist > row) break;
    }
}

struct AimVec {
    double x, y;
};

AimVec aim_vector(int brads) {
    const double radians = static_cast<double>(brads) * 2.0 * kPi / static_cast<double>(kAimBradsTurn);
    return {std::cos(radians), -std::sin(radians)};
}

double cone_cos(int deg) { return std::cos(static_cast<double>(deg) * kPi / 180.0); }

int cell_of(int v, int cells) { return std::clamp(v / kFovCellSize, 0, cells - 1); }

}  // namespace

void Sim::compute_shadowcast(int cx, int cy, std::vector<char>& visible) const {
    visible.assign(kFovCellCount, 0);
    visible[cy * kFovGridW + cx] = 1;
    for (const auto& t : kOctants) cast_octant(fovBlocked_, visible, cx, cy, 1, 1.0, 0.0, t);
}

void Sim::apply_cone(int cx, int cy, int aim, const std::vector<char>& cast, std::vector<char>& visible) const {
    visible = cast;
    const int ox = cx * kFovCellSize + kFovCellSize / 2;
    const int oy = cy * kFovCellSize + kFovCellSize / 2;
    const AimVec a = aim_vector(aim);
    const double cc = cone_cos(config_.visionConeDeg);
    const double bubbleSq = static_cast<double>(config_.visionBubble * config_.visionBubble);
    const double rangeSq = static_cast<double>(config_.sightRange * config_.sightRange);
    for (int y = 0; y < kFovGridH; ++y)
        for (int x = 0; x < kFovGridW; ++x) {
            const int index = y * kFovGridW + x;
            if (!visible[index]) continue;
            const double vx = static_cast<double>(x * kFovCellSize + kFovCellSize / 2 - ox);
            const double vy = static_cast<double>(y * kFovCellSize + kFovCellSize / 2 - oy);
            const double d2 = vx * vx + vy * vy;
            if (d2 <= bubbleSq) continue;
            if (d2 > rangeSq) {
                visible[index] = 0;
                continue;
            }
            const double dot = vx * a.x + vy * a.y;
            if (dot < cc * std::sqrt(d2)) visible[index] = 0;
        }
}

void Sim::refresh_player_fov(int slot) {
    const Player& p = players_[slot];
    const int cx = cell_of(p.x, kFovGridW), cy = cell_of(p.y, kFovGridH);
    FovCache& c = fov_[slot];
    if (c.valid && c.epoch == geometryEpoch_ && c.originCx == cx && c.originCy == cy && c.aimBrads == p.aimBrads)
        return;
    // Turning reuses the shadowcast: it depends only on the cell and the geometry epoch.
    if (!(c.cellValid && c.cellCx == cx && c.cellCy == cy && c.epoch == geometryEpoch_)) {
        compute_shadowcast(cx, cy, c.cellVisible);
        c.cellValid = true;
        c.cellCx = cx;
        c.cellCy = cy;
    }
    apply_cone(cx, cy, p.aimBrads, c.cellVisible, c.visible);
    c.valid = true;
    c.epoch = geometryEpoch_;
    c.originCx = cx;
    c.originCy = cy;
    c.aimBrads = p.aimBrads;
}

bool Sim::line_of_sight_clear(int ax, int ay, int bx, int by) const {
    const int dx = bx - ax, dy = by - ay;
    const int steps = std::max(std::abs(dx), std::abs(dy));
    if (steps == 0) return !wall_at(ax, ay);
    for (int k = 0; k <= steps; ++k)
        if (wall_at(ax + dx * k / steps, ay + dy * k / steps)) return false;
    return true;
}

bool Sim::player_visible_to(int viewer, int target) const {
    if (viewer == target) return true;
    const Player& t = players_[target];
    const Player& v = players_[viewer];
    if (t.airborne) {
        // Over the furniture: judged against static walls only.
        if (!v.alive) return false;
        const int dx = t.x - v.x, dy = t.y - v.y;
        const int dist2 = dx * dx + dy * dy;
        if (dist2 > config_.sightRange * config_.sightRange) return false;
        if (dist2 > config_.visionBubble * config_.visionBubble) {
            const AimVec a = aim_vector(v.aimBrads);
            const double vx = static_cast<double>(dx);
            const double vy = static_cast<double>(dy);
            if (vx * a.x + vy * a.y < cone_cos(config_.visionConeDeg) * std::sqrt(vx * vx + vy * vy)) return false;
        }
        return line_of_sight_clear(v.x, v.y, t.x, t.y);
    }
    if (!v.alive) return false;
    if (viewer >= static_cast<int>(fov_.size()) || !fov_[viewer].valid) return true;
    return fov_[viewer].visible[cell_of(t.y, kFovGridH) * kFovGridW + cell_of(t.x, kFovGridW)] != 0;
}

}  // namespace hschool::sim::hns
