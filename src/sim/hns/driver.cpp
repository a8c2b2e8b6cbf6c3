#include "sim/hns/driver.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <numbers>

#include "sim/hns/aim.hpp"
#include "sim/hns/constants.hpp"

namespace hschool::sim::hns {
namespace {

constexpr int kFar = INT_MIN / 2;

int dist_sq(int ax, int ay, int bx, int by) { return (ax - bx) * (ax - bx) + (ay - by) * (ay - by); }

Point resolve_point(const Room& room, const std::string& id, bool& ok) {
    ok = true;
    for (const auto& a : room.anchors)
        if (a.id == id) return {a.x, a.y};
    for (const auto& d : room.doors)
        if (d.id == id) return {d.x, d.y};
    for (const auto& r : room.regions)
        if (r.id == id) return {r.box.x + r.box.w / 2, r.box.y + r.box.h / 2};
    ok = false;
    return {};
}

}  // namespace

int brads_err(int desired, int current) {
    int d = (desired - current) % kAimBradsTurn;
    if (d < -(kAimBradsTurn / 2)) d += kAimBradsTurn;
    if (d > kAimBradsTurn / 2) d -= kAimBradsTurn;
    return d;
}

int brads_of_vector(int dx, int dy) {
    if (dx == 0 && dy == 0) return 0;
    const double radians = std::atan2(-static_cast<double>(dy), static_cast<double>(dx));
    int b = static_cast<int>(std::round(radians * kAimBradsTurn / (2.0 * std::numbers::pi)));
    b %= kAimBradsTurn;
    return b < 0 ? b + kAimBradsTurn : b;
}

Driver::Driver(const Sim& sim) : enemyMemory_(seats_remember_enemies(sim.game_version())) {
    build_grid(sim);
    gridEpoch_ = sim.geometry_epoch();
    gridTick_ = sim.tick_count();
}

void Driver::build_grid(const Sim& sim) {
    gridW_ = (kMapWidth + kNavCell - 1) / kNavCell;
    gridH_ = (kMapHeight + kNavCell - 1) / kNavCell;
    open_.assign(static_cast<std::size_t>(gridW_ * gridH_), 0);
    for (int cell = 0; cell < gridW_ * gridH_; ++cell) {
        const Goal c = centre(cell);
        if (c.x < kMapWidth && c.y < kMapHeight) open_[cell] = sim.can_occupy(c.x, c.y);
    }
    gridRects_.clear();
    for (const GameObject& o : sim.objects()) gridRects_.push_back(o.rect());
}

// Walls never move, so a nav cell can change only where its footprint meets a rect an object
// left or entered since the grid was built: those cells are tested again, the rest kept. The
// grid comes out as build_grid would make it.
bool Driver::update_grid(const Sim& sim) {
    const auto& objects = sim.objects();
    if (objects.size() != gridRects_.size()) {
        const std::vector<char> before = open_;
        build_grid(sim);
        return open_ != before;
    }
    bool changed = false;
    auto retest = [&](const Rect& r) {
        // A footprint centred on c covers [c - kPlayerHalf, c + kPlayerHalf]; cell i's centre is 12 i + 6.
        const int x0 = std::max(0, (r.x - kNavCell) / kNavCell), x1 = std::min(gridW_ - 1, (r.x + r.w - 1) / kNavCell);
        const int y0 = std::max(0, (r.y - kNavCell) / kNavCell), y1 = std::min(gridH_ - 1, (r.y + r.h - 1) / kNavCell);
        for (int cy = y0; cy <= y1; ++cy)
            for (int cx = x0; cx <= x1; ++cx) {
                const int cell = cy * gridW_ + cx;
                const Goal c = centre(cell);
                const char open = c.x < kMapWidth && c.y < kMapHeight && sim.can_occupy(c.x, c.y);
                changed = changed || open != open_[cell];
                open_[cell] = open;
            }
    };
    for (std::size_t i = 0; i < objects.size(); ++i) {
        const Rect now = objects[i].rect();
        Rect& was = gridRects_[i];
        if (now.x == was.x && now.y == was.y && now.w == was.w && now.h == was.h) continue;
        retest(was);
        retest(now);
        was = now;
    }
    return changed;
}

int Driver::cell_of(int x, int y) const {
    const int cx = x / kNavCell, cy = y / kNavCell;
    if (x < 0 || y < 0 || cx >= gridW_ || cy >= gridH_) return -1;
    return cy * gridW_ + cx;
}

Driver::Goal Driver::centre(int cell) const {
    return {(cell % gridW_) * kNavCell + kNavCell / 2, (cell / gridW_) * kNavCell + kNavCell / 2};
}

int Driver::nearest_open(int x, int y) const {
    const int px = std::clamp(x, 0, kMapWidth - 1), py = std::clamp(y, 0, kMapHeight - 1);
    const int start = cell_of(px, py);
    if (start >= 0 && open_[start]) return start;
    const int sx = px / kNavCell, sy = py / kNavCell;
    for (int r = 1; r <= gridW_ + gridH_; ++r)
        for (int dy = -r; dy <= r; ++dy)
            for (int dx = -r; dx <= r; ++dx) {
                if (std::abs(dx) != r && std::abs(dy) != r) continue;
                const int cx = sx + dx, cy = sy + dy;
                if (cx < 0 || cy < 0 || cx >= gridW_ || cy >= gridH_) continue;
                if (open_[cy * gridW_ + cx]) return cy * gridW_ + cx;
            }
    return -1;
}

// A field is a function of the grid and the goal alone, and observe() drops every field when the
// grid changes, so a cached field stays exact until then (the reference recomputes it every
// kFieldRefreshTicks and gets the same numbers).
const std::vector<int>& Driver::field_for(int goal) {
    if (auto it = fields_.find(goal); it != fields_.end()) return it->second;
    if (fields_.size() >= kMaxCachedFields) fields_.clear();
    std::vector<int>& field = fields_[goal];
    field.assign(open_.size(), -1);
    if (goal >= 0 && goal < static_cast<int>(field.size()) && open_[goal]) {
        queue_.clear();
        queue_.push_back(goal);
        field[goal] = 0;
        for (std::size_t head = 0; head < queue_.size(); ++head) {
            const int cell = queue_[head], cx = cell % gridW_, cy = cell / gridW_;
            const int next[4] = {cx + 1 < gridW_ ? cell + 1 : -1, cx > 0 ? cell - 1 : -1,
                                 cy + 1 < gridH_ ? cell + gridW_ : -1, cy > 0 ? cell - gridW_ : -1};
            for (const int n : next) {
                if (n < 0 || !open_[n] || field[n] >= 0) continue;
                field[n] = field[cell] + 1;
                queue_.push_back(n);
            }
        }
    }
    return field;
}

Driver::Goal Driver::steer(int fromX, int fromY, int goalX, int goalY) {
    const int goalCell = nearest_open(goalX, goalY);
    if (goalCell < 0) return {0, 0};
    const Goal g = centre(goalCell);
    const std::vector<int>& field = field_for(goalCell);
    const int here = nearest_open(fromX, fromY);
    if (here < 0 || field.empty() || field[here] <= 1) return {g.x - fromX, g.y - fromY};
    const int cx = here % gridW_, cy = here / gridW_;
    int best = field[here], bestCell = -1;
    constexpr int kN[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    for (const auto& d : kN) {
        const int nx = cx + d[0], ny = cy + d[1];
        if (nx < 0 || ny < 0 || nx >= gridW_ || ny >= gridH_) continue;
        const int next = ny * gridW_ + nx;
        if (!open_[next] || field[next] < 0) continue;
        // No corner cutting: a diagonal needs both cells it squeezes between open.
        if (d[0] != 0 && d[1] != 0 && (!open_[cy * gridW_ + nx] || !open_[ny * gridW_ + cx])) continue;
        if (field[next] < best) {
            best = field[next];
            bestCell = next;
        }
    }
    if (bestCell < 0) return {g.x - fromX, g.y - fromY};
    const Goal n = centre(bestCell);
    return {n.x - fromX, n.y - fromY};
}

void Driver::observe(const Sim& sim) {
    const std::size_t n = sim.players().size();
    if (lastX_.size() < n) {
        lastSeenX_.resize(n, 0);
        lastSeenY_.resize(n, 0);
        lastSeenTick_.resize(n, kFar);
        lastSeenIndex_.resize(n, -1);
        lastX_.resize(n, kFar);
        lastY_.resize(n, kFar);
        stuck_.resize(n, 0);
        pushTicks_.resize(n, 0);
        pushX_.resize(n, kFar);
        pushY_.resize(n, kFar);
        sweep_.resize(n, 0);
    }
    // The furniture moved: rebuild the grid, at most every kFieldRefreshTicks.
    if (gridEpoch_ != sim.geometry_epoch() && sim.tick_count() - gridTick_ >= kFieldRefreshTicks) {
        const bool changed = update_grid(sim);
        gridEpoch_ = sim.geometry_epoch();
        gridTick_ = sim.tick_count();
        // Most pushes leave every nav cell as it was; the fields then stay exact.
        if (changed) fields_.clear();
    }
    const auto& players = sim.players();
    for (std::size_t i = 0; i < n; ++i) {
        const int held = players[i].holding;
        if (held >= 0 && held < static_cast<int>(sim.objects().size())) {
            const GameObject& o = sim.objects()[held];
            pushTicks_[i] = o.x == pushX_[i] && o.y == pushY_[i] ? pushTicks_[i] + 1 : 0;
            pushX_[i] = o.x;
            pushY_[i] = o.y;
        } else {
            pushTicks_[i] = 0;
        }
        ++sweep_[i];
        stuck_[i] = players[i].x == lastX_[i] && players[i].y == lastY_[i] ? stuck_[i] + 1 : 0;
        lastX_[i] = players[i].x;
        lastY_[i] = players[i].y;
    }
    for (std::size_t i = 0; i < n; ++i) {
        if (!players[i].alive) continue;
        int bestDist = INT_MAX, best = -1;
        for (std::size_t j = 0; j < n; ++j) {
            if (j == i || !players[j].alive || players[j].team == players[i].team) continue;
            if (!sim.player_visible_to(static_cast<int>(i), static_cast<int>(j))) continue;
            const int d = dist_sq(players[i].x, players[i].y, players[j].x, players[j].y);
            if (d < bestDist) {
                bestDist = d;
                best = static_cast<int>(j);
            }
        }
        if (best >= 0) {
            lastSeenX_[i] = players[best].x;
            lastSeenY_[i] = players[best].y;
            lastSeenTick_[i] = sim.tick_count();
            lastSeenIndex_[i] = best;
        }
    }
}

KnownEnemy Driver::known_enemy(const Sim& sim, int slot) const {
    // GameVersion 1's knownEnemy (control.nim @501a9f5) had no success return, so it never
    // reported an enemy and chase and flinch never fired; F1 returns the sighting.
    if (!enemyMemory_ || slot < 0 || slot >= static_cast<int>(lastSeenTick_.size())) return {};
    const int age = sim.tick_count() - lastSeenTick_[slot];
    if (age > kHuntMemoryTicks || lastSeenIndex_[slot] < 0) return {};
    return {true, lastSeenX_[slot], lastSeenY_[slot], lastSeenIndex_[slot], age};
}

Driver::Goal Driver::order_point(const Sim& sim, const Order& order, int fx, int fy) const {
    if (!order.at.empty()) {
        bool ok = false;
        const Point p = resolve_point(sim.room(), order.at, ok);
        if (ok) return {p.x, p.y};
    }
    if (order.hasTo) return {order.toX, order.toY};
    return {fx, fy};
}

namespace {

Point standoff(const GameObject& o, int fromX, int fromY) {
    const int cx = o.x + o.w / 2, cy = o.y + o.h / 2;
    const int dx = fromX - cx, dy = fromY - cy;
    if (std::abs(dx) * o.h >= std::abs(dy) * o.w)
        return {cx + (dx >= 0 ? 1 : -1) * (o.w / 2 + kStandoffPx + kPlayerHalf), cy};
    return {cx, cy + (dy >= 0 ? 1 : -1) * (o.h / 2 + kStandoffPx + kPlayerHalf)};
}

int ramp_head(const GameObject& o, int x, int y) {
    if (o.axis == ObjectAxis::H) return x <= o.x + o.w / 2 ? 0 : 128;
    return y <= o.y + o.h / 2 ? 192 : 64;
}

}  // namespace

Driver::Goal Driver::goal_for(const Sim& sim, const Order& order, int slot) const {
    const Player& p = sim.players()[slot];
    const int px = p.x, py = p.y;
    const int index = order.obj.empty() ? -1 : sim.object_index(order.obj);
    switch (order.intent) {
        case Intent::MoveTo:
        case Intent::Hide: return order_point(sim, order, px, py);
        case Intent::Watch: return {px, py};
        case Intent::Chase: {
            const KnownEnemy e = known_enemy(sim, slot);
            return e.known ? Goal{e.x, e.y} : Goal{px, py};
        }
        case Intent::Push: {
            if (index < 0) return {px, py};
            const GameObject& o = sim.objects()[index];
            if (p.holding == index) {
                // Navigate so the object's centre reaches the target: offset by the grip.
                const int ocx = o.x + o.w / 2, ocy = o.y + o.h / 2;
                const Goal want = order_point(sim, order, ocx, ocy);
                return {px + want.x - ocx, py + want.y - ocy};
            }
            const Point s = standoff(o, px, py);
            return {s.x, s.y};
        }
        case Intent::Lock:
        case Intent::Unlock: {
            if (index < 0) return {px, py};
            const Point s = standoff(sim.objects()[index], px, py);
            return {s.x, s.y};
        }
        case Intent::Vault: {
            if (index < 0) return {px, py};
            const GameObject& o = sim.objects()[index];
            const int cx = o.x + o.w / 2, cy = o.y + o.h / 2;
            if (o.axis == ObjectAxis::H) return {cx - o.w / 2 - kStandoffPx, cy};
            return {cx, cy + o.h / 2 + kStandoffPx};
        }
    }
    return {px, py};
}

std::uint8_t Driver::compile_mask(const Sim& sim, const Order& order, int slot) {
    std::uint8_t m = 0;
    if (slot < 0 || slot >= static_cast<int>(sim.players().size())) return 0;
    const Player& p = sim.players()[slot];
    if (!p.alive || p.airborne) return 0;
    const int px = p.x, py = p.y;
    const int index = order.obj.empty() ? -1 : sim.object_index(order.obj);
    const Goal goal = goal_for(sim, order, slot);
    const int holding = p.holding;
    const int arrive = kArriveRadius * kArriveRadius;

    // d-pad: Up/Down (and Left/Right) come from one sign, so never both.
    bool wantsMove = dist_sq(px, py, goal.x, goal.y) > arrive && order.intent != Intent::Watch;
    if (order.intent == Intent::Vault && index >= 0 && sim.object_containing(px, py) == index) {
        const AimUnit& u = aim_unit(ramp_head(sim.objects()[index], px, py));
        if (u.x > kAimUnitScale / 4) m |= kBtnRight;
        else if (u.x < -kAimUnitScale / 4) m |= kBtnLeft;
        if (u.y > kAimUnitScale / 4) m |= kBtnDown;
        else if (u.y < -kAimUnitScale / 4) m |= kBtnUp;
        wantsMove = false;
    }
    if (wantsMove) {
        Goal s = steer(px, py, goal.x, goal.y);
        // Wedged: a quarter turn makes the cog follow the obstacle instead of pressing into it.
        if (slot < static_cast<int>(stuck_.size()) && stuck_[slot] >= kStuckTicks) s = {-s.y, s.x};
        const int ax = std::abs(s.x), ay = std::abs(s.y), major = std::max(ax, ay);
        if (major > 0) {
            if (ax * 5 >= major * 2) m |= s.x > 0 ? kBtnRight : kBtnLeft;
            if (ay * 5 >= major * 2) m |= s.y > 0 ? kBtnDown : kBtnUp;
        }
    }

    // Aim.
    int aimX = goal.x, aimY = goal.y;
    const bool objectIntent = order.intent == Intent::Push || order.intent == Intent::Lock ||
                              order.intent == Intent::Unlock || order.intent == Intent::Vault;
    if (order.hasFace) {
        aimX = order.faceX;
        aimY = order.faceY;
    } else if (index >= 0 && holding != index && objectIntent) {
        const GameObject& o = sim.objects()[index];
        aimX = o.x + o.w / 2;
        aimY = o.y + o.h / 2;
    } else if (order.intent == Intent::Watch) {
        const Goal pt = order_point(sim, order, px + kWatchLookPx, py);
        int sweep = 0;
        if (slot < static_cast<int>(sweep_.size())) {
            const int phase = (sweep_[slot] / kWatchSweepPhaseTicks) % 4;
            sweep = phase == 1 ? kWatchSweepBrads : phase == 3 ? -kWatchSweepBrads : 0;
        }
        const int base = brads_of_vector(pt.x - px, pt.y - py);
        const int dir = ((base + sweep) % kAimBradsTurn + kAimBradsTurn) % kAimBradsTurn;
        const double radians = static_cast<double>(dir) * 2.0 * std::numbers::pi / kAimBradsTurn;
        aimX = px + static_cast<int>(std::cos(radians) * static_cast<double>(kWatchAimPx));
        aimY = py + static_cast<int>(-std::sin(radians) * static_cast<double>(kWatchAimPx));
    } else if (order.intent == Intent::Hide && dist_sq(px, py, goal.x, goal.y) <= arrive) {
        int best = -1, bestDist = INT_MAX;
        const auto& doors = sim.room().doors;
        for (std::size_t i = 0; i < doors.size(); ++i) {
            const int d = dist_sq(px, py, doors[i].x, doors[i].y);
            if (d < bestDist) {
                bestDist = d;
                best = static_cast<int>(i);
            }
        }
        if (best >= 0) {
            aimX = doors[best].x;
            aimY = doors[best].y;
        }
    } else if (order.intent == Intent::Chase) {
        const KnownEnemy e = known_enemy(sim, slot);
        if (e.known) {
            aimX = e.x;
            aimY = e.y;
        }
    }
    if (dist_sq(px, py, aimX, aimY) <= kAimMinRangeSq) {
        aimX = px + kMapWidth / 2;
        aimY = py;
    }
    const int err = brads_err(brads_of_vector(aimX - px, aimY - py), p.aimBrads);
    if (err > kAimDeadBrads) m |= kBtnB;
    else if (err < -kAimDeadBrads) m |= kBtnSelect;

    // C: held while a push wants the object; released otherwise.
    if (order.intent == Intent::Push && index >= 0) {
        const bool giveUp = slot < static_cast<int>(pushTicks_.size()) && pushTicks_[slot] >= kPushGiveUpTicks;
        const GameObject& o = sim.objects()[index];
        const int ocx = o.x + o.w / 2, ocy = o.y + o.h / 2;
        const Goal want = order_point(sim, order, ocx, ocy);
        const bool notThere = dist_sq(ocx, ocy, want.x, want.y) > arrive;
        if (holding == index) {
            if (!giveUp && notThere) m |= kBtnC;
        } else if (holding < 0 && sim.may_touch(slot, index) && o.heldBy < 0 && !giveUp) {
            // Reach only for the ordered object, and only if it is not already where it should be.
            if (notThere && sim.grab_probe(slot) == index) m |= kBtnC;
        }
    }

    // A: the lock toggle, never pressed during the cooldown.
    if ((order.intent == Intent::Lock || order.intent == Intent::Unlock) && index >= 0 && p.lockCooldown == 0) {
        const GameObject& o = sim.objects()[index];
        int dx = 0, dy = 0;
        if (px < o.x) dx = o.x - px;
        else if (px >= o.x + o.w) dx = px - (o.x + o.w - 1);
        if (py < o.y) dy = o.y - py;
        else if (py >= o.y + o.h) dy = py - (o.y + o.h - 1);
        if (dx * dx + dy * dy <= sim.config().lockReach * sim.config().lockReach) {
            const LockOwner mine = p.team == Team::Red ? LockOwner::Hiders : LockOwner::Seekers;
            const bool toggle = (order.intent == Intent::Lock && o.lockedBy == LockOwner::None) ||
                                (order.intent == Intent::Unlock && o.lockedBy == mine);
            if (toggle) m |= kBtnA;
        }
    }
    return m;
}

}  // namespace hschool::sim::hns
