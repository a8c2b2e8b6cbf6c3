// Tick step 9 (§3.10): the recursive shadowcast over the 8 px grid, the float cone and bubble
// filter, and target visibility. The ONLY hns file with floats, as in the reference: the same
// expressions in the same order with the same libm calls, and no FP contraction.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <numbers>

#include "sim/hns/constants.hpp"
#include "sim/hns/fov.hpp"
#include "sim/hns/sim.hpp"

namespace hschool::sim::hns {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr int kOctants[8][4] = {{1, 0, 0, 1},   {0, 1, 1, 0},   {0, -1, 1, 0}, {-1, 0, 0, 1},
                                {-1, 0, 0, -1}, {0, -1, -1, 0}, {0, 1, -1, 0}, {1, 0, 0, -1}};

// The two slopes of cell dx on row dy of an octant. Every caller uses these very expressions, so a
// boundary found by search is the boundary the loop would have met.
double left_slope(int dx, int dy) { return (static_cast<double>(dx) - 0.5) / (static_cast<double>(dy) + 0.5); }
double right_slope(int dx, int dy) { return (static_cast<double>(dx) + 0.5) / (static_cast<double>(dy) - 0.5); }

// One octant of the reference's shadowcast. Along a row, right_slope only falls as dx grows (the
// numerator grows, the denominator is negative, division rounds monotonically), so the cells the
// reference skips with `start < rSlope` are a prefix of the row, and the cells off the grid are a
// prefix and a suffix: the row loop starts at the first cell that is neither and stops at the grid's
// edge. Neither kind of cell changes any state, so every cell the loop does visit sees the same
// start, slopes and flags as in the reference. Past the prefix the skip test is always false:
// `start` only ever becomes the right slope of an earlier cell of the row, never below a later one's.
void cast_octant(const char* blocked, char* visible, int ocx, int ocy, int row, double startSlope,
                 double endSlope, const int* t) {
    if (startSlope < endSlope) return;
    double start = startSlope;
    bool rowBlocked = false;
    double newStart = 0.0;
    const int maxDist = kFovGridW + kFovGridH;
    const int t0 = t[0], t1 = t[1], t2 = t[2], t3 = t[3];
    // dx moves one grid axis (by along = +-1), the row (dy) the other; a step of dx moves the
    // cell index by `step`.
    const bool dxMovesX = t0 != 0;
    const int along = dxMovesX ? t0 : t2;
    const int alongCells = dxMovesX ? kFovGridW : kFovGridH;
    const int acrossCells = dxMovesX ? kFovGridH : kFovGridW;
    const int step = t0 + t2 * kFovGridW;
    // Row dist: the across axis sits at acrossOrigin - dist * acrossPerRow, dx = 0 at
    // baseOrigin - dist * basePerRow along the other, and dx = 0's cell index moves by -rowStep.
    const int acrossOrigin = dxMovesX ? ocy : ocx, acrossPerRow = dxMovesX ? t3 : t1;
    const int baseOrigin = dxMovesX ? ocx : ocy, basePerRow = dxMovesX ? t1 : t3;
    const int rowStep = t3 * kFovGridW + t1;
    for (int dist = row; dist <= maxDist; ++dist) {
        if (rowBlocked) break;
        const int dy = -dist;
        const int across = acrossOrigin - dist * acrossPerRow;
        const int base = baseOrigin - dist * basePerRow;
        int lo = -dist, hi = 0;
        if (across < 0 || across >= acrossCells) {
            hi = lo - 1;
        } else if (along > 0) {
            lo = std::max(lo, -base);
            hi = std::min(hi, alongCells - 1 - base);
        } else {
            lo = std::max(lo, base - alongCells + 1);
            hi = std::min(hi, base);
        }
        if (lo > hi) {
            if (dist > row) break;
            continue;
        }
        // right_slope(dx) <= start from about dx = -start (dist + 0.5) - 0.5; the exact test settles it.
        const double guess = -start * (static_cast<double>(dist) + 0.5) - 0.5;
        int first = static_cast<int>(std::clamp(guess, static_cast<double>(lo), static_cast<double>(hi + 1)));
        while (first > lo && !(start < right_slope(first - 1, dy))) --first;
        while (first <= hi && start < right_slope(first, dy)) ++first;
        bool anyInside = false;
        int index = ocy * kFovGridW + ocx - dist * rowStep + first * step;
        for (int dx = first; dx <= hi; ++dx, index += step) {
            const double lSlope = left_slope(dx, dy);
            if (endSlope > lSlope) break;
            anyInside = true;
            visible[index] = 1;
            if (rowBlocked) {
                if (blocked[index]) {
                    newStart = right_slope(dx, dy);
                } else {
                    rowBlocked = false;
                    start = newStart;
                }
            } else if (blocked[index]) {
                rowBlocked = true;
                cast_octant(blocked, visible, ocx, ocy, dist + 1, start, lSlope, t);
                newStart = right_slope(dx, dy);
            }
        }
        if (!anyInside && dist > row) break;
    }
}

struct AimVec {
    double x, y;
};

double aim_radians(int brads) { return static_cast<double>(brads) * 2.0 * kPi / static_cast<double>(kAimBradsTurn); }

AimVec aim_vector(int brads) {
    const double radians = aim_radians(brads);
    return {std::cos(radians), -std::sin(radians)};
}

double cone_cos(int deg) { return std::cos(static_cast<double>(deg) * kPi / 180.0); }

int cell_of(int v, int cells) { return std::clamp(v / kFovCellSize, 0, cells - 1); }

// Cells whose centre is this far outside the exact cone's edges are culled. The cone test's
// rounding moves an edge by about 1e-12 px, so a cell that could pass is never culled.
constexpr double kConeSlackPx = 1.0;
// Only a cone narrower than a half-plane is the meet of its two edges' half-planes.
constexpr int kConeCullMaxDeg = 89;
// Cone edge normals with components below this are treated as parallel to the rows.
constexpr double kParallel = 1e-9;
// Past any offset on the board (in px), so clamped bounds convert to int safely.
constexpr double kFarPx = 1e6;

// The widest dx (in cells) with (8 dx)^2 + vy^2 <= limitSq, or -1 when none.
int reach_cells(long long limitSq, long long vy) {
    const long long rest = limitSq - vy * vy;
    if (rest < 0) return -1;
    long long r = static_cast<long long>(std::sqrt(static_cast<double>(rest)));
    while (r * r > rest) --r;
    while ((r + 1) * (r + 1) <= rest) ++r;
    return static_cast<int>(r / kFovCellSize);
}

// The loosened cone: inward unit normals (screen coordinates) of its two edges, each edge moved
// kConeSlackPx outward.
struct Wedge {
    bool culls = false;
    double nx[2] = {0, 0}, ny[2] = {0, 0};

    Wedge(int aim, int coneDeg) {
        if (coneDeg > kConeCullMaxDeg) return;
        culls = true;
        const double alpha = aim_radians(aim), theta = static_cast<double>(coneDeg) * kPi / 180.0;
        nx[0] = std::sin(alpha + theta);
        ny[0] = std::cos(alpha + theta);
        nx[1] = -std::sin(alpha - theta);
        ny[1] = -std::cos(alpha - theta);
    }
    // Narrows [lo, hi] (cell columns, relative to the origin) to row vy's columns inside both
    // loosened half-planes, rounded outward; false when none are.
    bool narrow(double vy, int& lo, int& hi) const {
        double from = -kFarPx, to = kFarPx;
        for (int i = 0; i < 2; ++i) {
            const double rhs = -kConeSlackPx - ny[i] * vy;  // inside: nx * vx >= rhs
            if (nx[i] > kParallel) from = std::max(from, rhs / nx[i]);
            else if (nx[i] < -kParallel) to = std::min(to, rhs / nx[i]);
            else if (rhs > kConeSlackPx / 2) return false;
        }
        if (from > to) return false;
        // Truncation toward zero, then one more cell outward: never inside the exact bound.
        lo = std::max(lo, static_cast<int>(std::clamp(from, -kFarPx, kFarPx) / kFovCellSize) - 1);
        hi = std::min(hi, static_cast<int>(std::clamp(to, -kFarPx, kFarPx) / kFovCellSize) + 1);
        return lo <= hi;
    }
};

}  // namespace

void shadowcast(const std::vector<char>& blocked, int cx, int cy, std::vector<char>& visible) {
    visible.assign(kFovCellCount, 0);
    visible[cy * kFovGridW + cx] = 1;
    for (const auto& t : kOctants) cast_octant(blocked.data(), visible.data(), cx, cy, 1, 1.0, 0.0, t);
}

namespace {

// The reference's bubble, range and cone test, its expressions in its order, for the cell whose
// centre is (8 dx, 8 dy) px from the origin cell's centre.
struct ConeTest {
    AimVec a;
    double cc, bubbleSq, rangeSq;

    ConeTest(const ConeParams& p, int aim)
        : a(aim_vector(aim)),
          cc(cone_cos(p.coneDeg)),
          bubbleSq(static_cast<double>(p.bubble * p.bubble)),
          rangeSq(static_cast<double>(p.range * p.range)) {}
    bool passes(int dx, int dy) const {
        const double vx = static_cast<double>(dx * kFovCellSize);
        const double vy = static_cast<double>(dy * kFovCellSize);
        const double d2 = vx * vx + vy * vy;
        if (d2 <= bubbleSq) return true;
        if (d2 > rangeSq) return false;
        const double dot = vx * a.x + vy * a.y;
        return !(dot < cc * std::sqrt(d2));
    }
};

}  // namespace

class ConeVerdicts {
public:
    // Consecutive passing cells of one row, as offsets from the origin cell.
    struct Run {
        std::int16_t dy, dxFrom, dxTo;
    };

    explicit ConeVerdicts(const ConeParams& params) : params_(params) {
        const long long bubbleSq = static_cast<long long>(params.bubble) * params.bubble;
        const long long rangeSq = static_cast<long long>(params.range) * params.range;
        // Past both the bubble and the range no cell stays.
        const int reach = reach_cells(std::max(bubbleSq, rangeSq), 0);
        rowReach_ = std::min(reach, kFovGridH - 1);
        colReach_ = std::min(reach, kFovGridW - 1);
    }
    bool made_for(const ConeParams& p) const {
        return p.coneDeg == params_.coneDeg && p.bubble == params_.bubble && p.range == params_.range;
    }
    // The runs of an aim of one turn, decided on first use.
    const std::vector<Run>& runs(int aim) const {
        std::call_once(decided_[aim], [&] { fill(aim, byAim_[aim]); });
        return byAim_[aim];
    }
    void fill(int aim, std::vector<Run>& runs) const;

private:
    ConeParams params_;
    int rowReach_ = 0, colReach_ = 0;  // how far from the origin a cell can pass
    mutable std::array<std::once_flag, kAimBradsTurn> decided_;
    mutable std::array<std::vector<Run>, kAimBradsTurn> byAim_;
};

namespace {

// Param sets whose verdicts outlive their last filter, for the next match (a handful of
// variants are played; a config may ask for any others).
constexpr std::size_t kKeptConeParams = 8;

std::shared_ptr<const ConeVerdicts> verdicts_for(const ConeParams& params) {
    static std::mutex mutex;
    static std::vector<std::shared_ptr<const ConeVerdicts>> kept;  // the most recently asked for last
    const std::lock_guard lock(mutex);
    for (auto it = kept.begin(); it != kept.end(); ++it)
        if ((*it)->made_for(params)) {
            std::shared_ptr<const ConeVerdicts> found = *it;
            kept.erase(it);
            kept.push_back(found);
            return found;
        }
    kept.push_back(std::make_shared<const ConeVerdicts>(params));
    if (kept.size() > kKeptConeParams) kept.erase(kept.begin());
    return kept.back();
}

}  // namespace

// Runs the test on the cells of each row that could pass it, the bubble's columns and the
// range's columns inside the loosened cone; every other cell fails it.
void ConeVerdicts::fill(int aim, std::vector<Run>& runs) const {
    runs.clear();
    const ConeTest test(params_, aim);
    const Wedge wedge(aim, params_.coneDeg);
    const long long bubbleSq = static_cast<long long>(params_.bubble) * params_.bubble;
    const long long rangeSq = static_cast<long long>(params_.range) * params_.range;
    for (int dy = -rowReach_; dy <= rowReach_; ++dy) {
        const long long vy = static_cast<long long>(dy) * kFovCellSize;
        const int inBubble = reach_cells(bubbleSq, vy);
        int lo = inBubble >= 0 ? -inBubble : colReach_ + 1, hi = inBubble >= 0 ? inBubble : -colReach_ - 1;
        if (const int inRange = reach_cells(rangeSq, vy); inRange >= 0) {
            int rlo = -inRange, rhi = inRange;
            if (!wedge.culls || wedge.narrow(static_cast<double>(vy), rlo, rhi)) {
                lo = std::min(lo, rlo);
                hi = std::max(hi, rhi);
            }
        }
        lo = std::max(lo, -colReach_);
        hi = std::min(hi, colReach_);
        for (int dx = lo; dx <= hi; ++dx) {
            if (!test.passes(dx, dy)) continue;
            if (!runs.empty() && runs.back().dy == dy && runs.back().dxTo == dx - 1) {
                ++runs.back().dxTo;
            } else {
                runs.push_back(Run{static_cast<std::int16_t>(dy), static_cast<std::int16_t>(dx), static_cast<std::int16_t>(dx)});
            }
        }
    }
}

void ConeFilter::apply(const ConeParams& params, int cx, int cy, int aim, const std::vector<char>& castGrid,
                       std::vector<char>& visibleGrid) {
    if (!verdicts_ || !verdicts_->made_for(params)) verdicts_ = verdicts_for(params);
    std::vector<ConeVerdicts::Run> unkept;  // an aim outside one turn rounds its own way: not kept
    const bool kept = aim >= 0 && aim < kAimBradsTurn;
    if (!kept) verdicts_->fill(aim, unkept);
    const std::vector<ConeVerdicts::Run>& runs = kept ? verdicts_->runs(aim) : unkept;
    visibleGrid.assign(kFovCellCount, 0);
    const char* cast = castGrid.data();
    char* visible = visibleGrid.data();
    for (const ConeVerdicts::Run& r : runs) {
        const int y = cy + r.dy;
        if (y < 0 || y >= kFovGridH) continue;
        const int x0 = std::max(0, cx + r.dxFrom), x1 = std::min(kFovGridW - 1, cx + r.dxTo);
        if (x0 <= x1) std::memcpy(visible + y * kFovGridW + x0, cast + y * kFovGridW + x0, static_cast<std::size_t>(x1 - x0 + 1));
    }
}

void Sim::compute_shadowcast(int cx, int cy, std::vector<char>& visible) const {
    shadowcast(fovBlocked_, cx, cy, visible);
}

void Sim::apply_cone(int cx, int cy, int aim, const std::vector<char>& cast, std::vector<char>& visible) {
    cone_.apply(ConeParams{config_.visionConeDeg, config_.visionBubble, config_.sightRange}, cx, cy, aim, cast, visible);
}

void Sim::refresh_player_fov(int slot) {
    const Player& p = players_[slot];
    const int cx = cell_of(p.x, kFovGridW), cy = cell_of(p.y, kFovGridH);
    FovCache& c = fov_[slot];
    if (c.valid && c.epoch == fovEpoch_ && c.originCx == cx && c.originCy == cy && c.aimBrads == p.aimBrads)
        return;
    // Turning reuses the shadowcast: it depends only on the cell and the geometry epoch.
    if (!(c.cellValid && c.cellCx == cx && c.cellCy == cy && c.epoch == fovEpoch_)) {
        compute_shadowcast(cx, cy, c.cellVisible);
        c.cellValid = true;
        c.cellCx = cx;
        c.cellCy = cy;
    }
    apply_cone(cx, cy, p.aimBrads, c.cellVisible, c.visible);
    c.valid = true;
    c.epoch = fovEpoch_;
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
