#include "sim/hns/baselines.hpp"

#include <algorithm>
#include <climits>
#include <optional>

#include "sim/hns/constants.hpp"
#include "sim/hns/rect_distance.hpp"

namespace hschool::sim::hns {
namespace {

int dist_sq(int ax, int ay, int bx, int by) { return (ax - bx) * (ax - bx) + (ay - by) * (ay - by); }

int region_at(const Room& room, int x, int y) {
    for (std::size_t i = 0; i < room.regions.size(); ++i)
        if (room.regions[i].box.contains(x, y)) return static_cast<int>(i);
    return -1;
}

bool holds_seeker_pad(const Room& room, const Region& r) {
    for (const auto& a : room.anchors)
        if (a.kind == AnchorKind::Pad && a.team == AnchorTeam::Seekers && r.box.contains(a.x, a.y)) return true;
    return false;
}

// The region of the cog's pad, or the nearest region without a seeker pad.
int home_region(const Sim& sim, int slot) {
    const Room& room = sim.room();
    const Player& p = sim.players()[slot];
    int index = region_at(room, p.homeX, p.homeY);
    if (index < 0) index = std::max(0, region_at(room, p.x, p.y));
    if (index >= static_cast<int>(room.regions.size())) return 0;
    if (!holds_seeker_pad(room, room.regions[index])) return index;
    int best = index, bestDist = INT_MAX;
    for (std::size_t i = 0; i < room.regions.size(); ++i) {
        const Region& r = room.regions[i];
        if (holds_seeker_pad(room, r)) continue;
        const int d = dist_sq(p.x, p.y, r.box.x + r.box.w / 2, r.box.y + r.box.h / 2);
        if (d < bestDist) {
            bestDist = d;
            best = static_cast<int>(i);
        }
    }
    return best;
}

struct DoorPick {
    int x = 0, y = 0;
    bool ok = false;
};

DoorPick my_door(const Sim& sim, int slot, int region, const BaselineParams& params) {
    const Room& room = sim.room();
    if (region < 0 || region >= static_cast<int>(room.regions.size())) return {};
    const auto& doors = room.regions[region].doors;
    if (doors.empty()) return {};
    const int pick = ((sim.players()[slot].joinOrder / 2) * params.doorRotation) % static_cast<int>(doors.size());
    for (const auto& d : room.doors)
        if (d.id == doors[pick]) return {d.x, d.y, true};
    return {};
}

// A panel within panelReach of the cog, else the nearest crate, else the nearest panel.
int nearest_cover(const Sim& sim, int slot, int x, int y, const BaselineParams& params) {
    int bestPanel = -1, bestPanelDist = INT_MAX, bestCrate = -1, bestCrateDist = INT_MAX;
    const auto& objs = sim.objects();
    for (std::size_t i = 0; i < objs.size(); ++i) {
        const GameObject& o = objs[i];
        if ((o.heldBy >= 0 && o.heldBy != slot) || o.lockedBy != LockOwner::None) continue;
        if (!sim.may_touch(slot, static_cast<int>(i))) continue;
        const int d = dist_sq(x, y, o.x + o.w / 2, o.y + o.h / 2);
        if (o.kind == ObjectKind::Panel && d < bestPanelDist) {
            bestPanelDist = d;
            bestPanel = static_cast<int>(i);
        } else if (o.kind == ObjectKind::Crate && d < bestCrateDist) {
            bestCrateDist = d;
            bestCrate = static_cast<int>(i);
        }
    }
    if (bestPanel >= 0 && bestPanelDist <= params.panelReach * params.panelReach) return bestPanel;
    if (bestCrate >= 0) return bestCrate;
    return bestPanel;
}

struct RampPick {
    int index = -1, dist = INT_MAX;
};

RampPick nearest_ramp(const Sim& sim, int slot, int x, int y) {
    RampPick r;
    const auto& objs = sim.objects();
    for (std::size_t i = 0; i < objs.size(); ++i) {
        const GameObject& o = objs[i];
        if (o.kind != ObjectKind::Ramp || o.heldBy >= 0 || !sim.may_touch(slot, static_cast<int>(i))) continue;
        const int d = dist_sq(x, y, o.x + o.w / 2, o.y + o.h / 2);
        if (d < r.dist) r = {static_cast<int>(i), d};
    }
    return r;
}

std::vector<Anchor> anchors_of(const Room& room, AnchorKind kind, int region = -1) {
    std::vector<Anchor> out;
    for (const auto& a : room.anchors) {
        if (a.kind != kind) continue;
        if (region >= 0 && region < static_cast<int>(room.regions.size()) && !room.regions[region].box.contains(a.x, a.y))
            continue;
        out.push_back(a);
    }
    return out;
}

std::vector<Anchor> patrol_anchors(const Room& room) {
    auto a = anchors_of(room, AnchorKind::Patrol);
    return a.empty() ? anchors_of(room, AnchorKind::Pocket) : a;
}

Order make(Intent intent, std::string obj = {}, std::string at = {}, int toX = -1, int toY = -1, std::string say = {}) {
    Order o;
    o.intent = intent;
    o.obj = std::move(obj);
    o.at = std::move(at);
    o.say = std::move(say);
    o.fromReply = true;
    if (toX >= 0 && toY >= 0) {
        o.hasTo = true;
        o.toX = std::clamp(toX, 0, kMapWidth - 1);
        o.toY = std::clamp(toY, 0, kMapHeight - 1);
    }
    return o;
}

Order burrow_hider(const Sim& sim, const Driver& drv, int slot, int turn, const BaselineParams& params) {
    const Player& p = sim.players()[slot];
    const int home = home_region(sim, slot);
    const DoorPick door = my_door(sim, slot, home, params);
    const Room& room = sim.room();
    if (sim.match_phase() == MatchPhase::Hunt) {
        const KnownEnemy e = drv.known_enemy(sim, slot);
        if (e.known && dist_sq(p.x, p.y, e.x, e.y) <= params.flinchRadius * params.flinchRadius) {
            auto pockets = anchors_of(room, AnchorKind::Pocket, home);
            if (pockets.empty()) pockets = anchors_of(room, AnchorKind::Pocket);
            int best = -1, bestDist = -1;
            for (std::size_t i = 0; i < pockets.size(); ++i) {
                const int d = dist_sq(pockets[i].x, pockets[i].y, e.x, e.y);
                if (d > bestDist) {
                    bestDist = d;
                    best = static_cast<int>(i);
                }
            }
            if (best >= 0) return make(Intent::Hide, {}, pockets[best].id, pockets[best].x, pockets[best].y);
        }
    }
    if (door.ok) {
        const int cover = nearest_cover(sim, slot, p.x, p.y, params);
        if (cover >= 0) {
            const GameObject& o = sim.objects()[cover];
            const bool atDoor = rect_dist_sq(o.rect(), door.x, door.y) <= kDoorPlaceRadius * kDoorPlaceRadius;
            if (atDoor && o.lockedBy == LockOwner::None) return make(Intent::Lock, o.id);
            if (!atDoor) return make(Intent::Push, o.id, {}, door.x, door.y, turn == 1 ? "on it" : "");
        }
        const RampPick ramp = nearest_ramp(sim, slot, door.x, door.y);
        if (ramp.index >= 0 && ramp.dist <= params.rampSweep * params.rampSweep) {
            const GameObject& o = sim.objects()[ramp.index];
            if (o.lockedBy == LockOwner::None) {
                const int cx = o.x < kMapWidth / 2 ? kMapWidth - kFarCornerInset : kFarCornerInset;
                const int cy = o.y < kMapHeight / 2 ? kMapHeight - kFarCornerInset : kFarCornerInset;
                if (dist_sq(o.x + o.w / 2, o.y + o.h / 2, cx, cy) <= kRampParkRadius * kRampParkRadius)
                    return make(Intent::Lock, o.id);
                return make(Intent::Push, o.id, {}, cx, cy);
            }
        }
    }
    auto pockets = anchors_of(room, AnchorKind::Pocket, home);
    if (pockets.empty()) pockets = anchors_of(room, AnchorKind::Pocket);
    if (pockets.empty()) return make(Intent::Watch);
    // The pocket nearest this cog inside home: spreading the hiders beats crowding them.
    int best = 0, bestDist = INT_MAX;
    for (std::size_t i = 0; i < pockets.size(); ++i) {
        const int d = dist_sq(p.x, p.y, pockets[i].x, pockets[i].y);
        if (d < bestDist) {
            bestDist = d;
            best = static_cast<int>(i);
        }
    }
    Order o = make(Intent::Hide, {}, pockets[best].id, pockets[best].x, pockets[best].y);
    if (door.ok) {
        o.hasFace = true;
        o.faceX = door.x;
        o.faceY = door.y;
    }
    return o;
}

// What every seeker baseline does first: chase a known hider within chaseRadius, else watch when the
// room has no patrol anchors. Nothing when the seeker goes on to patrol `anchors`.
std::optional<Order> seeker_first_move(const Sim& sim, const Driver& drv, int slot, const BaselineParams& params,
                                       const std::vector<Anchor>& anchors) {
    const Player& p = sim.players()[slot];
    const KnownEnemy e = drv.known_enemy(sim, slot);
    if (e.known && dist_sq(p.x, p.y, e.x, e.y) <= params.chaseRadius * params.chaseRadius) return make(Intent::Chase);
    if (anchors.empty()) return make(Intent::Watch);
    return std::nullopt;
}

Order burrow_seeker(const Sim& sim, const Driver& drv, int slot, int turn, const BaselineParams& params) {
    const Player& p = sim.players()[slot];
    const auto anchors = patrol_anchors(sim.room());
    if (auto first = seeker_first_move(sim, drv, slot, params, anchors)) return *first;
    const Anchor& target = anchors[static_cast<std::size_t>((p.joinOrder / 2 + turn) % static_cast<int>(anchors.size()))];
    const int blocking = sim.object_containing((p.x + target.x) / 2, (p.y + target.y) / 2);
    if (blocking >= 0) {
        const GameObject& o = sim.objects()[blocking];
        if (o.lockedBy == LockOwner::None)
            return make(Intent::Push, o.id, {}, std::clamp(o.x + o.w / 2 + kShoveAsidePx, 0, kMapWidth - 1), o.y + o.h / 2);
        const RampPick ramp = nearest_ramp(sim, slot, p.x, p.y);
        if (ramp.index >= 0 && sim.objects()[ramp.index].lockedBy == LockOwner::None)
            return make(Intent::Vault, sim.objects()[ramp.index].id);
    }
    if (turn % 2 == 0) return make(Intent::Watch, {}, target.id, target.x, target.y);
    return make(Intent::MoveTo, {}, target.id, target.x, target.y);
}

Order scatter_hider(const Sim& sim, const Driver& drv, int slot, int turn, const BaselineParams& params) {
    const Player& p = sim.players()[slot];
    const Room& room = sim.room();
    const auto pockets = anchors_of(room, AnchorKind::Pocket);
    if (pockets.empty()) return make(Intent::Watch);
    // Pockets ranked by distance from the nearest seeker pad, farthest first (stable).
    std::vector<std::pair<int, int>> ranked;
    for (std::size_t i = 0; i < pockets.size(); ++i) {
        int worst = INT_MAX;
        for (const auto& a : room.anchors)
            if (a.kind == AnchorKind::Pad && a.team == AnchorTeam::Seekers)
                worst = std::min(worst, dist_sq(pockets[i].x, pockets[i].y, a.x, a.y));
        ranked.emplace_back(worst, static_cast<int>(i));
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    const KnownEnemy e = drv.known_enemy(sim, slot);
    if (e.known && dist_sq(p.x, p.y, e.x, e.y) <= params.flinchRadius * params.flinchRadius) {
        const Anchor& pick = pockets[ranked[0].second];
        return make(Intent::MoveTo, {}, pick.id, pick.x, pick.y);
    }
    const int alternate = ranked.size() > 1 && turn % 2 == 1 ? 1 : 0;
    const Anchor& pick = pockets[ranked[alternate].second];
    return make(Intent::MoveTo, {}, pick.id, pick.x, pick.y);
}

Order scatter_seeker(const Sim& sim, const Driver& drv, int slot, int turn, const BaselineParams& params) {
    const Player& p = sim.players()[slot];
    const auto anchors = patrol_anchors(sim.room());
    if (auto first = seeker_first_move(sim, drv, slot, params, anchors)) return *first;
    const int n = static_cast<int>(anchors.size());
    const int start = (p.joinOrder / 2) * n / 3;
    const Anchor& target = anchors[static_cast<std::size_t>((start + turn) % n)];
    return make(Intent::MoveTo, {}, target.id, target.x, target.y);
}

}  // namespace

BaselineParams baseline_params(GameVersion version) {
    BaselineParams p;
    if (version >= GameVersion::V2) p.chaseRadius = kChaseRadiusV2;
    return p;
}

Baseline parse_baseline(std::string_view text) {
    std::string s;
    for (char c : text)
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') s.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c));
    return s == "scatter" ? Baseline::Scatter : Baseline::Burrow;
}

Order baseline_order(Baseline b, const Sim& sim, const Driver& drv, int slot, int turn, const BaselineParams& params) {
    if (slot < 0 || slot >= static_cast<int>(sim.players().size())) return make(Intent::Watch);
    const bool hiding = sim.players()[slot].team == Team::Red;
    if (b == Baseline::Burrow)
        return hiding ? burrow_hider(sim, drv, slot, turn, params) : burrow_seeker(sim, drv, slot, turn, params);
    return hiding ? scatter_hider(sim, drv, slot, turn, params) : scatter_seeker(sim, drv, slot, turn, params);
}

Order baseline_order(Baseline b, const Sim& sim, const Driver& drv, int slot, int turn) {
    return baseline_order(b, sim, drv, slot, turn, baseline_params(sim.game_version()));
}

}  // namespace hschool::sim::hns
