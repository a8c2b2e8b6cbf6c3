#pragma once
// The hot functions as they stood before issue 42 (commit 0671c6d), over explicit data: a byte per
// pixel for walls and furniture, the whole-grid cone loop, the row-by-row shadowcast, the nav grid
// of can_occupy calls and its breadth-first field. The differential tests hold the fast versions to
// these answers; the hns microbenchmarks time them as "before". Keep them as they were.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <string>
#include <vector>

#include "sim/hns/aim.hpp"
#include "sim/hns/constants.hpp"
#include "sim/hns/driver.hpp"
#include "sim/hns/fov.hpp"
#include "sim/hns/room.hpp"
#include "sim/hns/state.hpp"

namespace pre42 {
namespace hns = hschool::sim::hns;
using hns::kFovCellSize;
using hns::kFovGridH;
using hns::kFovGridW;
using hns::kMapHeight;
using hns::kMapWidth;
using hns::kPlayerHalf;

// The Sim's byte-per-pixel masks: the room's walls and the furniture rasterized, both clipped to the board.
struct Masks {
    std::vector<char> wall, object;
};

inline Masks masks_of(const hns::Room& room, const std::vector<hns::GameObject>& objects) {
    Masks m;
    m.wall.assign(kMapWidth * kMapHeight, 0);
    for (const hns::Rect& w : room.walls)
        for (int y = std::max(w.y, 0); y < std::min(w.y + w.h, kMapHeight); ++y)
            for (int x = std::max(w.x, 0); x < std::min(w.x + w.w, kMapWidth); ++x) m.wall[y * kMapWidth + x] = 1;
    m.object.assign(kMapWidth * kMapHeight, 0);
    for (const hns::GameObject& o : objects)
        for (int y = std::max(o.y, 0); y <= std::min(o.y + o.h - 1, kMapHeight - 1); ++y)
            for (int x = std::max(o.x, 0); x <= std::min(o.x + o.w - 1, kMapWidth - 1); ++x) m.object[y * kMapWidth + x] = 1;
    return m;
}

inline bool can_occupy(const Masks& m, int x, int y) {
    if (x - kPlayerHalf < 0 || y - kPlayerHalf < 0 || x + kPlayerHalf >= kMapWidth || y + kPlayerHalf >= kMapHeight)
        return false;
    for (int py = y - kPlayerHalf; py <= y + kPlayerHalf; ++py) {
        const int row = py * kMapWidth;
        for (int px = x - kPlayerHalf; px <= x + kPlayerHalf; ++px)
            if (m.wall[row + px] || m.object[row + px]) return false;
    }
    return true;
}

inline bool can_occupy_ignoring(const Masks& m, const std::vector<hns::GameObject>& objects, int x, int y, int ignore) {
    if (x - kPlayerHalf < 0 || y - kPlayerHalf < 0 || x + kPlayerHalf >= kMapWidth || y + kPlayerHalf >= kMapHeight)
        return false;
    const hns::Rect box = ignore >= 0 && ignore < static_cast<int>(objects.size()) ? objects[ignore].rect() : hns::Rect{};
    for (int py = y - kPlayerHalf; py <= y + kPlayerHalf; ++py) {
        const int row = py * kMapWidth;
        for (int px = x - kPlayerHalf; px <= x + kPlayerHalf; ++px) {
            if (m.wall[row + px]) return false;
            if (m.object[row + px] && !box.contains(px, py)) return false;
        }
    }
    return true;
}

inline bool rect_hits_wall(const Masks& m, const hns::Rect& r) {
    if (r.x < 0 || r.y < 0 || r.x + r.w > kMapWidth || r.y + r.h > kMapHeight) return true;
    for (int y = r.y; y < r.y + r.h; ++y)
        for (int x = r.x; x < r.x + r.w; ++x)
            if (m.wall[y * kMapWidth + x]) return true;
    return false;
}

// The walls as pixels; the furniture, cogs and keep-clear zone as the sim tests them (code
// issue 42 left alone), through `keepClear`.
template <typename KeepClear>
inline bool can_place_object(const Masks& m, const std::vector<hns::GameObject>& objects,
                             const std::vector<hns::Player>& players, int index, const hns::Rect& r, int holder,
                             const KeepClear& keepClear) {
    if (rect_hits_wall(m, r)) return false;
    for (std::size_t i = 0; i < objects.size(); ++i)
        if (static_cast<int>(i) != index && r.overlaps(objects[i].rect())) return false;
    for (std::size_t i = 0; i < players.size(); ++i) {
        const hns::Player& p = players[i];
        if (static_cast<int>(i) == holder || !p.alive || p.airborne) continue;
        if (r.overlaps(hns::Rect{p.x - kPlayerHalf, p.y - kPlayerHalf, hns::kPlayerSolidSpan + 1, hns::kPlayerSolidSpan + 1}))
            return false;
    }
    return !keepClear(r);
}

// refresh_fov_cells over the whole board: a cell is blocked when half its pixels are wall or furniture.
inline std::vector<char> fov_blocked(const Masks& m) {
    std::vector<char> blocked(hns::kFovCellCount, 0);
    for (int gy = 0; gy < kFovGridH; ++gy)
        for (int gx = 0; gx < kFovGridW; ++gx) {
            int count = 0, pixels = 0;
            for (int py = gy * kFovCellSize; py < std::min((gy + 1) * kFovCellSize, kMapHeight); ++py)
                for (int px = gx * kFovCellSize; px < std::min((gx + 1) * kFovCellSize, kMapWidth); ++px) {
                    const int i = py * kMapWidth + px;
                    ++pixels;
                    count += (m.wall[i] || m.object[i]) ? 1 : 0;
                }
            blocked[gy * kFovGridW + gx] = count * 2 >= pixels;
        }
    return blocked;
}

inline void cast_octant(const std::vector<char>& blocked, std::vector<char>& visible, int ocx, int ocy, int row,
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

inline void shadowcast(const std::vector<char>& blocked, int cx, int cy, std::vector<char>& visible) {
    static constexpr int kOctants[8][4] = {{1, 0, 0, 1},   {0, 1, 1, 0},   {0, -1, 1, 0}, {-1, 0, 0, 1},
                                           {-1, 0, 0, -1}, {0, -1, -1, 0}, {0, 1, -1, 0}, {1, 0, 0, -1}};
    visible.assign(hns::kFovCellCount, 0);
    visible[cy * kFovGridW + cx] = 1;
    for (const auto& t : kOctants) cast_octant(blocked, visible, cx, cy, 1, 1.0, 0.0, t);
}

inline void cone(const hns::ConeParams& p, int cx, int cy, int aim, const std::vector<char>& cast,
                 std::vector<char>& visible) {
    constexpr double kPi = std::numbers::pi;
    visible = cast;
    const int ox = cx * kFovCellSize + kFovCellSize / 2;
    const int oy = cy * kFovCellSize + kFovCellSize / 2;
    const double radians = static_cast<double>(aim) * 2.0 * kPi / static_cast<double>(hns::kAimBradsTurn);
    const double ax = std::cos(radians), ay = -std::sin(radians);
    const double cc = std::cos(static_cast<double>(p.coneDeg) * kPi / 180.0);
    const double bubbleSq = static_cast<double>(p.bubble * p.bubble);
    const double rangeSq = static_cast<double>(p.range * p.range);
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
            const double dot = vx * ax + vy * ay;
            if (dot < cc * std::sqrt(d2)) visible[index] = 0;
        }
}

inline int grab_probe(const std::vector<hns::GameObject>& objects, const hns::Player& p, int grabReach) {
    const hns::AimUnit& u = hns::aim_unit(p.aimBrads);
    for (int step = kPlayerHalf; step <= kPlayerHalf + grabReach; ++step) {
        const int x = p.x + u.x * step / hns::kAimUnitScale, y = p.y + u.y * step / hns::kAimUnitScale;
        for (std::size_t i = 0; i < objects.size(); ++i)
            if (objects[i].rect().contains(x, y)) return static_cast<int>(i);
    }
    return -1;
}

// The sealed-fort scan's flood from the live seekers' cells: the mask of hiders it cannot reach.
inline std::uint64_t sealed_mask(const std::vector<char>& wallCells, const std::vector<hns::GameObject>& objects,
                                 const std::vector<hns::Player>& players) {
    std::vector<char> locked(hns::kFovCellCount, 0);
    for (const hns::GameObject& o : objects) {
        if (o.lockedBy != hns::LockOwner::Hiders) continue;
        const int gx0 = std::clamp(o.x / kFovCellSize, 0, kFovGridW - 1);
        const int gy0 = std::clamp(o.y / kFovCellSize, 0, kFovGridH - 1);
        const int gx1 = std::clamp((o.x + o.w - 1) / kFovCellSize, 0, kFovGridW - 1);
        const int gy1 = std::clamp((o.y + o.h - 1) / kFovCellSize, 0, kFovGridH - 1);
        for (int gy = gy0; gy <= gy1; ++gy)
            for (int gx = gx0; gx <= gx1; ++gx) locked[gy * kFovGridW + gx] = 1;
    }
    auto cell = [](const hns::Player& p) {
        return std::clamp(p.y / kFovCellSize, 0, kFovGridH - 1) * kFovGridW + std::clamp(p.x / kFovCellSize, 0, kFovGridW - 1);
    };
    std::vector<char> reached(hns::kFovCellCount, 0);
    std::vector<int> queue;
    for (const hns::Player& p : players) {
        if (p.team != hns::Team::Blue || !p.alive) continue;
        const int i = cell(p);
        if (!reached[i]) {
            reached[i] = 1;
            queue.push_back(i);
        }
    }
    constexpr int kNeighbours[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const int cx = queue[head] % kFovGridW, cy = queue[head] / kFovGridW;
        for (const auto& d : kNeighbours) {
            const int nx = cx + d[0], ny = cy + d[1];
            if (nx < 0 || ny < 0 || nx >= kFovGridW || ny >= kFovGridH) continue;
            const int next = ny * kFovGridW + nx;
            if (reached[next] || wallCells[next] || locked[next]) continue;
            reached[next] = 1;
            queue.push_back(next);
        }
    }
    std::uint64_t mask = 0;
    for (std::size_t s = 0; s < players.size(); ++s)
        if (players[s].team == hns::Team::Red && !reached[cell(players[s])] && s < 64) mask |= 1ULL << s;
    return mask;
}

// The seats' navigation grid: a cell is open when a body fits at its centre.
inline std::vector<char> nav_grid(const Masks& m) {
    const int w = (kMapWidth + hns::kNavCell - 1) / hns::kNavCell, h = (kMapHeight + hns::kNavCell - 1) / hns::kNavCell;
    std::vector<char> open(static_cast<std::size_t>(w * h), 0);
    for (int cell = 0; cell < w * h; ++cell) {
        const int x = (cell % w) * hns::kNavCell + hns::kNavCell / 2, y = (cell / w) * hns::kNavCell + hns::kNavCell / 2;
        if (x < kMapWidth && y < kMapHeight) open[cell] = can_occupy(m, x, y);
    }
    return open;
}

inline std::vector<int> nav_field(const std::vector<char>& open, int gridW, int gridH, int goal) {
    std::vector<int> field(open.size(), -1);
    if (goal >= 0 && goal < static_cast<int>(field.size()) && open[goal]) {
        std::vector<int> queue{goal};
        field[goal] = 0;
        constexpr int kN[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        for (std::size_t head = 0; head < queue.size(); ++head) {
            const int cell = queue[head], cx = cell % gridW, cy = cell / gridW;
            for (const auto& d : kN) {
                const int nx = cx + d[0], ny = cy + d[1];
                if (nx < 0 || ny < 0 || nx >= gridW || ny >= gridH) continue;
                const int next = ny * gridW + nx;
                if (!open[next] || field[next] >= 0) continue;
                field[next] = field[cell] + 1;
                queue.push_back(next);
            }
        }
    }
    return field;
}

// What room validation says of a shipped room whose walls, anchors or spawns were moved: the
// first of its geometric checks to fail, as 0671c6d ran them (footprints scanned pixel by pixel,
// one flood per seeker pad); validation's other checks pass for such rooms.
inline std::string room_geometry_problem(const hns::Room& room) {
    auto at = [](const char* list, std::size_t i) { return std::string(list) + "[" + std::to_string(i) + "]"; };
    const Masks walls = masks_of(room, {});
    auto footprint_clear = [&](int x, int y) {
        for (int py = y - kPlayerHalf; py <= y + kPlayerHalf; ++py)
            for (int px = x - kPlayerHalf; px <= x + kPlayerHalf; ++px)
                if (px < 0 || py < 0 || px >= kMapWidth || py >= kMapHeight || walls.wall[py * kMapWidth + px]) return false;
        return true;
    };
    for (std::size_t i = 0; i < room.doors.size(); ++i)
        if (room.wall_at(room.doors[i].x, room.doors[i].y)) return at("doors", i) + ".at: inside a wall";
    for (std::size_t i = 0; i < room.anchors.size(); ++i)
        if (!footprint_clear(room.anchors[i].x, room.anchors[i].y)) return at("anchors", i) + ".at: no clearance for a body";
    for (std::size_t i = 0; i < room.spawns.size(); ++i)
        if (!footprint_clear(room.spawns[i].x, room.spawns[i].y)) return at("objectSpawns", i) + ".at: not on floor";
    std::vector<char> open(hns::kFovCellCount);
    for (int cy = 0; cy < kFovGridH; ++cy)
        for (int cx = 0; cx < kFovGridW; ++cx)
            open[cy * kFovGridW + cx] = footprint_clear(cx * kFovCellSize + kFovCellSize / 2, cy * kFovCellSize + kFovCellSize / 2);
    for (const hns::Point& pad : room.pads(hns::AnchorTeam::Seekers)) {
        std::vector<char> seen(hns::kFovCellCount);
        std::vector<int> queue{(pad.y / kFovCellSize) * kFovGridW + pad.x / kFovCellSize};
        seen[queue[0]] = 1;
        for (std::size_t head = 0; head < queue.size(); ++head) {
            const int cx = queue[head] % kFovGridW, cy = queue[head] / kFovGridW;
            const int next[4][2] = {{cx + 1, cy}, {cx - 1, cy}, {cx, cy + 1}, {cx, cy - 1}};
            for (const auto& [nx, ny] : next) {
                const int i = ny * kFovGridW + nx;
                if (nx < 0 || ny < 0 || nx >= kFovGridW || ny >= kFovGridH || seen[i] || !open[i]) continue;
                seen[i] = 1;
                queue.push_back(i);
            }
        }
        for (std::size_t r = 0; r < room.regions.size(); ++r) {
            const hns::Rect& b = room.regions[r].box;
            bool reached = false;
            for (int y = std::max(0, b.y / kFovCellSize); y <= std::min((b.y + b.h - 1) / kFovCellSize, kFovGridH - 1); ++y)
                for (int x = std::max(0, b.x / kFovCellSize); x <= std::min((b.x + b.w - 1) / kFovCellSize, kFovGridW - 1); ++x)
                    reached = reached || seen[y * kFovGridW + x];
            if (!reached) return at("regions", r) + ": unreachable from a seeker pad";
        }
    }
    return {};
}

}  // namespace pre42
