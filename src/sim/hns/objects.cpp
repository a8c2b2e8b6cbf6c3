// The object layer (§3.12): the seeded deal, pixel masks and the dirty-rect repair, placement
// rules, the grab probe, lock targeting and the vault geometry. Integer only.
#include <algorithm>
#include <bit>
#include <cstdlib>

#include "sim/hns/aim.hpp"
#include "sim/hns/constants.hpp"
#include "sim/hns/rect_distance.hpp"
#include "sim/hns/sim.hpp"

namespace hschool::sim::hns {
namespace {

// Pixels set in a or b over fog cell (cx, cy).
int cell_pixels(const PixelRows& a, const PixelRows& b, int cx, int cy) {
    const std::uint64_t counts = a.cell_counts_with(b, cy, cx / PixelRows::kCellsPerWord);
    return static_cast<int>((counts >> ((cx % PixelRows::kCellsPerWord) * 8)) & 0xFF);
}

// a without b: at most four rects (the bands above and below b, then left and right of it).
constexpr int kRectMinusParts = 4;
int rect_minus(const Rect& a, const Rect& b, Rect* out) {
    if (a.w <= 0 || a.h <= 0) return 0;
    if (!a.overlaps(b)) {
        out[0] = a;
        return 1;
    }
    int n = 0;
    const int top = std::max(a.y, b.y), bottom = std::min(a.y + a.h, b.y + b.h);
    if (b.y > a.y) out[n++] = Rect{a.x, a.y, a.w, b.y - a.y};
    if (b.y + b.h < a.y + a.h) out[n++] = Rect{a.x, b.y + b.h, a.w, a.y + a.h - (b.y + b.h)};
    if (b.x > a.x) out[n++] = Rect{a.x, top, b.x - a.x, bottom - top};
    if (b.x + b.w < a.x + a.w) out[n++] = Rect{b.x + b.w, top, a.x + a.w - (b.x + b.w), bottom - top};
    return n;
}

void object_size(ObjectKind kind, ObjectAxis axis, int& w, int& h) {
    const bool horizontal = axis == ObjectAxis::H;
    switch (kind) {
        case ObjectKind::Crate: w = h = kCrateSize; return;
        case ObjectKind::Panel:
            w = horizontal ? kPanelLong : kPanelShort;
            h = horizontal ? kPanelShort : kPanelLong;
            return;
        case ObjectKind::Ramp:
            w = horizontal ? kRampLong : kRampShort;
            h = horizontal ? kRampShort : kRampLong;
            return;
    }
}

}  // namespace

bool Sim::wall_at(int x, int y) const {
    if (x < 0 || y < 0 || x >= kMapWidth || y >= kMapHeight) return true;
    return wallMask_.test(x, y);
}

bool Sim::object_at_pixel(int x, int y) const {
    if (x < 0 || y < 0 || x >= kMapWidth || y >= kMapHeight) return false;
    return objectMask_.test(x, y);
}

std::uint8_t Sim::pixel_flags(int x, int y) const {
    return static_cast<std::uint8_t>((wall_at(x, y) ? 1 : 0) | (object_at_pixel(x, y) ? 2 : 0));
}

// The walls' part of a footprint is one bit of the dilated mask; the furniture's, a span per row.
bool Sim::can_occupy(int x, int y) const {
    if (x - kPlayerHalf < 0 || y - kPlayerHalf < 0 || x + kPlayerHalf >= kMapWidth || y + kPlayerHalf >= kMapHeight)
        return false;
    if (bodyWallMask_.test(x, y)) return false;
    return !objectMask_.any_in(x - kPlayerHalf, y - kPlayerHalf, x + kPlayerHalf + 1, y + kPlayerHalf + 1);
}

bool Sim::can_occupy_ignoring(int x, int y, int ignore) const {
    if (x - kPlayerHalf < 0 || y - kPlayerHalf < 0 || x + kPlayerHalf >= kMapWidth || y + kPlayerHalf >= kMapHeight)
        return false;
    if (bodyWallMask_.test(x, y)) return false;
    const Rect box = ignore >= 0 && ignore < static_cast<int>(objects_.size()) ? objects_[ignore].rect() : Rect{};
    const int x0 = x - kPlayerHalf, x1 = x + kPlayerHalf + 1;
    // The ignored object's own pixels, clipped to the footprint's columns, are no obstacle.
    const int skip0 = std::max(x0, box.x), skip1 = std::min(x1, box.x + box.w);
    for (int py = y - kPlayerHalf; py <= y + kPlayerHalf; ++py) {
        if (skip0 < skip1 && py >= box.y && py < box.y + box.h) {
            if (objectMask_.any(py, x0, skip0) || objectMask_.any(py, skip1, x1)) return false;
        } else if (objectMask_.any(py, x0, x1)) {
            return false;
        }
    }
    return true;
}

int Sim::object_index(std::string_view id) const {
    for (std::size_t i = 0; i < objects_.size(); ++i)
        if (objects_[i].id == id) return static_cast<int>(i);
    return -1;
}

int Sim::object_containing(int x, int y) const {
    for (std::size_t i = 0; i < objects_.size(); ++i)
        if (objects_[i].rect().contains(x, y)) return static_cast<int>(i);
    return -1;
}

bool Sim::rect_hits_wall(const Rect& r) const {
    if (r.x < 0 || r.y < 0 || r.x + r.w > kMapWidth || r.y + r.h > kMapHeight) return true;
    return wallMask_.any_in(r.x, r.y, r.x + r.w, r.y + r.h);
}

bool Sim::covers_any_pad(const Rect& r) const {
    for (const Anchor& a : room_.anchors) {
        if (a.kind != AnchorKind::Pad) continue;
        if (r.overlaps(Rect{a.x - kPadBoxHalf, a.y - kPadBoxHalf, kPadBoxSpan, kPadBoxSpan})) return true;
    }
    return false;
}

bool Sim::keep_clear_violated(const Rect& r) const {
    const int limit = config_.keepClearPx * config_.keepClearPx;
    for (const Anchor& a : room_.anchors) {
        if (a.kind != AnchorKind::Pad || a.team != AnchorTeam::Seekers) continue;
        if (rect_dist_sq(r, a.x, a.y) < limit) return true;
    }
    return false;
}

void Sim::build_static_masks() {
    for (const Rect& w : room_.walls) {
        const int x0 = std::max(w.x, 0), x1 = std::min(w.x + w.w, kMapWidth);
        for (int y = std::max(w.y, 0); y < std::min(w.y + w.h, kMapHeight); ++y)
            if (x0 < x1) wallMask_.fill(y, x0, x1, true);
    }
    bodyWallMask_ = wallMask_.dilated(kPlayerHalf);
    objectMask_.clear_all();
    fovBlocked_.assign(kFovCellCount, 0);
    refresh_fov_cells(0, 0, kMapWidth, kMapHeight);
    wallCells_.assign(kFovCellCount, 0);
    for (int cy = 0; cy < kFovGridH; ++cy)
        for (int cx = 0; cx < kFovGridW; ++cx)
            wallCells_[cy * kFovGridW + cx] = cell_pixels(wallMask_, wallMask_, cx, cy) * 2 >= kFovCellPixels;
}

void Sim::refresh_fov_cells(int x0, int y0, int x1, int y1) {
    const int gx0 = std::clamp(x0 / kFovCellSize, 0, kFovGridW - 1);
    const int gx1 = std::clamp((x1 - 1) / kFovCellSize, 0, kFovGridW - 1);
    const int gy0 = std::clamp(y0 / kFovCellSize, 0, kFovGridH - 1);
    const int gy1 = std::clamp((y1 - 1) / kFovCellSize, 0, kFovGridH - 1);
    constexpr int kPerWord = PixelRows::kCellsPerWord;
    for (int gy = gy0; gy <= gy1; ++gy)
        for (int w = gx0 / kPerWord; w <= gx1 / kPerWord; ++w) {
            const std::uint64_t counts = wallMask_.cell_counts_with(objectMask_, gy, w);
            for (int gx = std::max(gx0, w * kPerWord); gx <= std::min(gx1, w * kPerWord + kPerWord - 1); ++gx) {
                const int blocked = static_cast<int>((counts >> ((gx % kPerWord) * 8)) & 0xFF);
                const char value = blocked * 2 >= kFovCellPixels;
                char& cell = fovBlocked_[gy * kFovGridW + gx];
                if (cell != value) fovFlips_.push_back(gy * kFovGridW + gx);
                cell = value;
            }
        }
}

void Sim::rasterize_objects() {
    objectMask_.clear_all();
    for (const GameObject& o : objects_) {
        const int x0 = std::max(o.x, 0), x1 = std::min(o.x + o.w, kMapWidth);
        for (int y = std::max(o.y, 0); y <= std::min(o.y + o.h - 1, kMapHeight - 1); ++y)
            if (x0 < x1) objectMask_.fill(y, x0, x1, true);
    }
    fovFlips_.clear();
    refresh_fov_cells(0, 0, kMapWidth, kMapHeight);
}

void Sim::invalidate_fov_caches() {
    for (FovCache& c : fov_) {
        c.valid = false;
        c.cellValid = false;
    }
}

// The shadowcast reads the blocked grid only at the cells it shows, so a cached cast (and the
// cone cut from it) that shows none of the flipped cells is what a new cast would give.
void Sim::invalidate_fov_caches_seeing(const std::vector<int>& flipped) {
    for (FovCache& c : fov_) {
        bool sees = !c.cellValid;
        for (std::size_t k = 0; k < flipped.size() && !sees; ++k) sees = c.cellVisible[flipped[k]] != 0;
        if (sees) {
            c.valid = false;
            c.cellValid = false;
        } else {
            c.epoch = fovEpoch_;
        }
    }
}

void Sim::refresh_object_geometry(const Rect& a, const Rect& b) {
    const int x0 = std::max(0, std::min(a.x, b.x));
    const int y0 = std::max(0, std::min(a.y, b.y));
    const int x1 = std::min(kMapWidth, std::max(a.x + a.w, b.x + b.w));
    const int y1 = std::min(kMapHeight, std::max(a.y + a.h, b.y + b.h));
    if (x0 < x1)
        for (int y = y0; y < y1; ++y) objectMask_.fill(y, x0, x1, false);
    for (const GameObject& o : objects_) {
        if (!(o.x < x1 && x0 < o.x + o.w && o.y < y1 && y0 < o.y + o.h)) continue;
        const int cx0 = std::max(o.x, x0), cy0 = std::max(o.y, y0);
        const int cx1 = std::min(o.x + o.w, x1), cy1 = std::min(o.y + o.h - 1, y1 - 1);
        for (int y = cy0; y <= cy1; ++y) objectMask_.fill(y, cx0, cx1, true);
    }
    ++geometryEpoch_;
    // Only pixels the object left or entered changed, so only fog cells over them can flip.
    fovFlips_.clear();
    Rect changed[2 * kRectMinusParts];
    int parts = rect_minus(a, b, changed);
    parts += rect_minus(b, a, changed + parts);
    for (int i = 0; i < parts; ++i) {
        const Rect& r = changed[i];
        const int px0 = std::max(0, r.x), py0 = std::max(0, r.y);
        const int px1 = std::min(kMapWidth, r.x + r.w), py1 = std::min(kMapHeight, r.y + r.h);
        if (px0 < px1 && py0 < py1) refresh_fov_cells(px0, py0, px1, py1);
    }
    // The fog reads the blocked cells only: a move that flips none leaves every cached view right.
    if (!fovFlips_.empty()) {
        ++fovEpoch_;
        invalidate_fov_caches_seeing(fovFlips_);
    }
}

void Sim::deal_objects() {
    std::vector<int> order(room_.spawns.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    setupRng_.shuffle(order);
    objects_.clear();
    std::vector<char> taken(order.size(), 0);
    auto take = [&](ObjectKind kind, int count, const char* prefix) {
        int placed = 0;
        for (int slot : order) {
            if (placed >= count) break;
            if (taken[slot]) continue;
            const ObjectSpawn& sp = room_.spawns[slot];
            const bool capable = kind == ObjectKind::Crate ? sp.crate : kind == ObjectKind::Panel ? sp.panel : sp.ramp;
            if (!capable) continue;
            GameObject o;
            o.kind = kind;
            o.axis = sp.axis;
            object_size(kind, sp.axis, o.w, o.h);
            o.x = sp.x - o.w / 2;
            o.y = sp.y - o.h / 2;
            const Rect r = o.rect();
            if (rect_hits_wall(r) || keep_clear_violated(r) || covers_any_pad(r)) continue;
            bool clash = false;
            for (const GameObject& other : objects_) clash = clash || r.overlaps(other.rect());
            if (clash) continue;
            o.id = prefix + std::to_string(placed + 1);
            o.spawnX = o.x;
            o.spawnY = o.y;
            taken[slot] = 1;
            objects_.push_back(std::move(o));
            ++placed;
        }
    };
    take(ObjectKind::Crate, config_.crates, "box");
    take(ObjectKind::Panel, config_.panels, "pan");
    take(ObjectKind::Ramp, config_.ramps, "ramp");
    rasterize_objects();
}

bool Sim::may_touch(int slot, int index) const {
    if (index < 0 || index >= static_cast<int>(objects_.size())) return false;
    switch (objects_[index].lockedBy) {
        case LockOwner::None: return true;
        case LockOwner::Hiders: return players_[slot].team == Team::Red;
        case LockOwner::Seekers: return players_[slot].team == Team::Blue;
    }
    return false;
}

int Sim::grab_probe(int slot) const {
    const Player& p = players_[slot];
    const AimUnit& u = aim_unit(p.aimBrads);
    const int first = kPlayerHalf, last = kPlayerHalf + config_.grabReach;
    // Each probe coordinate moves one way as the step grows, so every probe point lies in the box
    // of the two ends: only objects meeting it can be hit. They are tried in index order, as
    // object_containing does.
    const int ax = p.x + u.x * first / kAimUnitScale, bx = p.x + u.x * last / kAimUnitScale;
    const int ay = p.y + u.y * first / kAimUnitScale, by = p.y + u.y * last / kAimUnitScale;
    const Rect reach{std::min(ax, bx), std::min(ay, by), std::abs(bx - ax) + 1, std::abs(by - ay) + 1};
    static_assert(kMaxObjects <= 64);
    std::uint64_t near = 0;
    for (std::size_t i = 0; i < objects_.size() && i < 64; ++i)
        if (objects_[i].rect().overlaps(reach)) near |= std::uint64_t{1} << i;
    if (near == 0) return -1;
    for (int step = first; step <= last; ++step) {
        const int x = p.x + u.x * step / kAimUnitScale, y = p.y + u.y * step / kAimUnitScale;
        for (std::uint64_t left = near; left != 0; left &= left - 1) {
            const int i = std::countr_zero(left);
            if (objects_[i].rect().contains(x, y)) return i;
        }
    }
    return -1;
}

int Sim::nearest_object_within(int slot, int reach) const {
    const Player& p = players_[slot];
    const int limit = reach * reach;
    int best = -1, bestDist = 0;
    for (std::size_t i = 0; i < objects_.size(); ++i) {
        const int d = rect_dist_sq(objects_[i].rect(), p.x, p.y);
        if (d > limit) continue;
        if (best < 0 || d < bestDist) {
            best = static_cast<int>(i);
            bestDist = d;
        }
    }
    return best;
}

bool Sim::can_place_object(int index, const Rect& r, int holder) const {
    if (rect_hits_wall(r)) return false;
    for (std::size_t i = 0; i < objects_.size(); ++i)
        if (static_cast<int>(i) != index && r.overlaps(objects_[i].rect())) return false;
    for (std::size_t i = 0; i < players_.size(); ++i) {
        const Player& p = players_[i];
        if (static_cast<int>(i) == holder || !p.alive || p.airborne) continue;
        if (r.overlaps(Rect{p.x - kPlayerHalf, p.y - kPlayerHalf, kPlayerSolidSpan + 1, kPlayerSolidSpan + 1}))
            return false;
    }
    return !keep_clear_violated(r);
}

void Sim::move_object(int index, int dx, int dy) {
    const Rect old = objects_[index].rect();
    objects_[index].x += dx;
    objects_[index].y += dy;
    refresh_object_geometry(old, objects_[index].rect());
}

void Sim::drop_object(int slot) {
    const int held = players_[slot].holding;
    if (held < 0) return;
    if (held < static_cast<int>(objects_.size()) && objects_[held].heldBy == slot) objects_[held].heldBy = -1;
    players_[slot].holding = -1;
}

bool Sim::vault_span_clear(int fromX, int fromY, int brads, int span) const {
    // The reference counts the ramp's own pixels as the barrier (see docs/hide-and-seek.md).
    const AimUnit& u = aim_unit(brads);
    bool entered = false;
    int thickness = 0;
    for (int step = 1; step <= span + kVaultReachTicks * kVaultSpeed; ++step) {
        const int px = fromX + u.x * step / kAimUnitScale;
        const int py = fromY + u.y * step / kAimUnitScale;
        if (px < 0 || py < 0 || px >= kMapWidth || py >= kMapHeight) return false;
        if (wall_at(px, py) || object_at_pixel(px, py)) {
            entered = true;
            if (++thickness > span) return false;
        } else if (entered) {
            return true;
        }
    }
    return entered;
}

bool Sim::vault_landing(int fromX, int fromY, int brads, int& outX, int& outY) const {
    const AimUnit& u = aim_unit(brads);
    for (int step = kVaultReachTicks * kVaultSpeed; step >= 1; --step) {
        const int px = fromX + u.x * step / kAimUnitScale;
        const int py = fromY + u.y * step / kAimUnitScale;
        if (can_occupy(px, py)) {
            outX = px;
            outY = py;
            return true;
        }
    }
    outX = fromX;
    outY = fromY;
    return false;
}

}  // namespace hschool::sim::hns
