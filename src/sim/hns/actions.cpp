// Tick steps 3, 4, 5 and 7: aim, grab/release, lock toggles and vaults, each in ascending slot
// order so ties go to the lower slot. Integer only.
#include <algorithm>

#include "sim/hns/aim.hpp"
#include "sim/hns/constants.hpp"
#include "sim/hns/sim.hpp"

namespace hschool::sim::hns {

void Sim::apply_aim(int slot, const Input& in) {
    Player& p = players_[slot];
    if (in.b() != in.select()) {
        const int turn = in.b() ? config_.aimTurnRate : -config_.aimTurnRate;
        p.aimBrads = ((p.aimBrads + turn) % kAimBradsTurn + kAimBradsTurn) % kAimBradsTurn;
    }
    p.flipH = p.aimBrads > kAimBradsTurn / 4 && p.aimBrads < kAimBradsTurn * 3 / 4;
}

void Sim::resolve_grabs(const std::vector<Input>& in, const std::vector<Input>& prev) {
    for (std::size_t s = 0; s < players_.size(); ++s) {
        const int slot = static_cast<int>(s);
        Player& p = players_[s];
        if (!p.alive) continue;
        if (p.holding >= 0) {
            // The break counter counts refused axis steps and resets only on grab or drop.
            const bool broke = p.pushBlockedTicks >= kGrabBreakTicks;
            if (!in[s].c() || broke || p.airborne) {
                drop_object(slot);
                p.pushBlockedTicks = 0;
                lastResults_[s] = broke ? ActionResult::PushStuck : ActionResult::Dropped;
            }
            continue;
        }
        if (!(in[s].c() && !prev[s].c())) continue;
        if (p.airborne) continue;
        const int target = grab_probe(slot);
        if (target < 0) {
            lastResults_[s] = ActionResult::GrabFailed;
            continue;
        }
        if (!may_touch(slot, target)) {
            lastResults_[s] = ActionResult::LockRefused;
            continue;
        }
        if (objects_[target].heldBy >= 0) {
            lastResults_[s] = ActionResult::GrabFailed;
            continue;
        }
        objects_[target].heldBy = slot;
        p.holding = target;
        p.pushBlockedTicks = 0;
        ++p.grabs;
        lastResults_[s] = ActionResult::Grabbed;
    }
}

void Sim::resolve_locks(const std::vector<Input>& in, const std::vector<Input>& prev) {
    for (std::size_t s = 0; s < players_.size(); ++s) {
        Player& p = players_[s];
        if (p.lockCooldown > 0) --p.lockCooldown;
        if (!p.alive || p.airborne) continue;
        if (!(in[s].a() && !prev[s].a())) continue;
        if (p.lockCooldown > 0) continue;
        int target = p.holding;
        if (target < 0) target = nearest_object_within(static_cast<int>(s), config_.lockReach);
        if (target < 0) continue;
        const LockOwner mine = p.team == Team::Red ? LockOwner::Hiders : LockOwner::Seekers;
        GameObject& o = objects_[target];
        if (o.lockedBy == LockOwner::None) {
            o.lockedBy = mine;
            ++p.locks;
            lastResults_[s] = ActionResult::Locked;
        } else if (o.lockedBy == mine) {
            o.lockedBy = LockOwner::None;
            lastResults_[s] = ActionResult::Unlocked;
        } else {
            lastResults_[s] = ActionResult::LockRefused;
        }
        p.lockCooldown = kLockCooldownTicks;
    }
}

void Sim::resolve_vaults() {
    for (std::size_t s = 0; s < players_.size(); ++s) {
        const int slot = static_cast<int>(s);
        Player& p = players_[s];
        if (!p.alive) continue;
        if (p.airborne) {
            --p.vaultLeft;
            const AimUnit& u = aim_unit(p.vaultDirBrads);
            p.x = std::clamp(p.x + u.x * kVaultSpeed / kAimUnitScale, 0, kMapWidth - 1);
            p.y = std::clamp(p.y + u.y * kVaultSpeed / kAimUnitScale, 0, kMapHeight - 1);
            if (p.vaultLeft <= 0) {
                p.airborne = false;
                int lx = 0, ly = 0;
                const bool ok = vault_landing(p.vaultFromX, p.vaultFromY, p.vaultDirBrads, lx, ly);
                place_player(slot, lx, ly);
                lastResults_[s] = ok ? ActionResult::Vaulted : ActionResult::VaultFailed;
            }
            continue;
        }
        if (p.holding >= 0) continue;
        // Unreachable through motion (a body never overlaps an object); kept for bit-compatibility.
        const int ramp = object_containing(p.x, p.y);
        if (ramp < 0 || objects_[ramp].kind != ObjectKind::Ramp) continue;
        const GameObject& o = objects_[ramp];
        int brads = 0;
        if (o.axis == ObjectAxis::H) brads = p.x <= o.x + o.w / 2 ? 0 : 128;
        else brads = p.y <= o.y + o.h / 2 ? 192 : 64;
        const AimUnit& u = aim_unit(brads);
        const int along = (p.velX * u.x + p.velY * u.y) / kAimUnitScale;
        if (along < config_.maxSpeed / 2) continue;
        if (!vault_span_clear(p.x, p.y, brads, config_.vaultSpanPx)) continue;
        p.airborne = true;
        p.vaultLeft = config_.vaultTicks;
        p.vaultDirBrads = brads;
        p.vaultFromX = p.x;
        p.vaultFromY = p.y;
        ++p.vaults;
    }
}

}  // namespace hschool::sim::hns
