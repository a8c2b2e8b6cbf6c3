// Tick step 6 (§3.6): the fixed-point integrator, one axis at a time, with the perpendicular
// slide, cog blocking with an elastic bounce, and rigid carry of a held object. Integer only.
#include <algorithm>
#include <cstdlib>

#include "sim/hns/constants.hpp"
#include "sim/hns/sim.hpp"

namespace hschool::sim::hns {
namespace {

int sign_of(int v) { return v < 0 ? -1 : (v > 0 ? 1 : 0); }

}  // namespace

bool Sim::body_fits(int slot, int x, int y) const {
    const int held = players_[slot].holding;
    return held >= 0 ? can_occupy_ignoring(x, y, held) : can_occupy(x, y);
}

bool Sim::held_fits(int slot, int dx, int dy) const {
    const int held = players_[slot].holding;
    if (held < 0) return true;
    Rect r = objects_[held].rect();
    r.x += dx;
    r.y += dy;
    return can_place_object(held, r, slot);
}

bool Sim::players_overlap_at(int slot, int x, int y) const {
    for (std::size_t i = 0; i < players_.size(); ++i) {
        const Player& o = players_[i];
        if (static_cast<int>(i) == slot || !o.alive || o.airborne) continue;
        if (std::max(std::abs(x - o.x), std::abs(y - o.y)) <= kPlayerSolidSpan) return true;
    }
    return false;
}

int Sim::blocking_player_at(int slot, int fromX, int fromY, int toX, int toY) const {
    // Moving apart is always allowed, so bodies that start overlapped can escape.
    for (std::size_t i = 0; i < players_.size(); ++i) {
        const Player& o = players_[i];
        if (static_cast<int>(i) == slot || !o.alive || o.airborne) continue;
        const int toDist = std::max(std::abs(toX - o.x), std::abs(toY - o.y));
        if (toDist > kPlayerSolidSpan) continue;
        const int fromDist = std::max(std::abs(fromX - o.x), std::abs(fromY - o.y));
        if (toDist <= fromDist) return static_cast<int>(i);
    }
    return -1;
}

void Sim::commit_step(int slot, int dx, int dy) {
    Player& p = players_[slot];
    p.x += dx;
    p.y += dy;
    if (p.holding >= 0) {
        move_object(p.holding, dx, dy);
        p.pushedPx += std::abs(dx) + std::abs(dy);
    }
}

bool Sim::can_slide(int slot, int x, int y, int step, int offset, bool horizontal) const {
    if (offset == 0) return false;
    const int s = sign_of(offset);
    for (int i = 1; i <= std::abs(offset); ++i) {
        const int px = horizontal ? x : x + s * i;
        const int py = horizontal ? y + s * i : y;
        if (!body_fits(slot, px, py) || players_overlap_at(slot, px, py) ||
            !held_fits(slot, horizontal ? 0 : s * i, horizontal ? s * i : 0))
            return false;
    }
    const int dx = horizontal ? step : offset;
    const int dy = horizontal ? offset : step;
    return body_fits(slot, x + dx, y + dy) && !players_overlap_at(slot, x + dx, y + dy) && held_fits(slot, dx, dy);
}

bool Sim::try_slide_move(int slot, int step, int radius, int preferred, bool horizontal) {
    if (radius <= 0) return false;
    const int pref = sign_of(preferred);
    auto attempt = [&](int offset) {
        const Player& p = players_[slot];
        if (!can_slide(slot, p.x, p.y, step, offset, horizontal)) return false;
        if (horizontal) commit_step(slot, step, offset);
        else commit_step(slot, offset, step);
        return true;
    };
    for (int d = 1; d <= radius; ++d) {
        if (pref != 0) {
            if (attempt(pref * d) || attempt(-pref * d)) return true;
        } else {
            if (attempt(-d) || attempt(d)) return true;
        }
    }
    return false;
}

void Sim::bounce_players(int a, int b, bool horizontal) {
    int& v1 = horizontal ? players_[a].velX : players_[a].velY;
    int& v2 = horizontal ? players_[b].velX : players_[b].velY;
    const int total = v1 + v2;
    const int rebound = (v1 - v2) * config_.playerBouncePct / 100;
    v1 = (total - rebound) / 2;
    v2 = (total + rebound) / 2;
}

void Sim::apply_momentum_axis(int slot, int preferredSlide, bool horizontal) {
    const int scale = config_.motionScale;
    const int velocity = horizontal ? players_[slot].velX : players_[slot].velY;
    int carry = (horizontal ? players_[slot].carryX : players_[slot].carryY) + velocity;
    while (std::abs(carry) >= scale) {
        const int step = carry < 0 ? -1 : 1;
        const int dx = horizontal ? step : 0;
        const int dy = horizontal ? 0 : step;
        const int nx = players_[slot].x + dx;
        const int ny = players_[slot].y + dy;
        int blocker = -1;
        const bool fits = body_fits(slot, nx, ny) && held_fits(slot, dx, dy);
        if (fits) blocker = blocking_player_at(slot, players_[slot].x, players_[slot].y, nx, ny);
        if (fits && blocker < 0) {
            commit_step(slot, dx, dy);
            carry -= step * scale;
            continue;
        }
        const int pending = std::abs(carry) / scale;
        const int speed = (std::abs(velocity) + scale - 1) / scale;
        const int radius = std::clamp(std::max(1, std::max(pending, speed)), 1, kMovementSlideMaxScan);
        if (try_slide_move(slot, step, radius, preferredSlide, horizontal)) {
            carry -= step * scale;
            continue;
        }
        if (blocker >= 0) {
            bounce_players(slot, blocker, horizontal);
        } else if (players_[slot].holding >= 0) {
            // A refused held push stops the axis; a plain wall bump keeps its velocity.
            ++players_[slot].pushBlockedTicks;
            (horizontal ? players_[slot].velX : players_[slot].velY) = 0;
        }
        carry = 0;
        break;
    }
    (horizontal ? players_[slot].carryX : players_[slot].carryY) = carry;
}

void Sim::apply_input(int slot, const Input& in) {
    if (slot < 0 || slot >= static_cast<int>(players_.size())) return;
    Player& p = players_[slot];
    if (!p.alive || p.airborne) return;
    const int ix = (in.right() ? 1 : 0) - (in.left() ? 1 : 0);
    const int iy = (in.down() ? 1 : 0) - (in.up() ? 1 : 0);
    // The carry speed scales the cap only, not the acceleration (motion.nim @2e4bdf3).
    const int cap = config_.maxSpeedFor(p.holding >= 0);
    const int accel = config_.accel;
    auto update = [&](int& v, int i) {
        if (i != 0) {
            v = std::clamp(v + i * accel, -cap, cap);
        } else {
            v = v * config_.frictionNum / config_.frictionDen;
            if (std::abs(v) < config_.stopThreshold) v = 0;
        }
    };
    update(p.velX, ix);
    update(p.velY, iy);
    const int prefY = iy != 0 ? iy : sign_of(p.velY);
    const int prefX = ix != 0 ? ix : sign_of(p.velX);
    apply_momentum_axis(slot, prefY, true);
    apply_momentum_axis(slot, prefX, false);
}

}  // namespace hschool::sim::hns
