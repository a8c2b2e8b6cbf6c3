// gameHash (spec §5.1): FNV-1a over 64-bit words in a fixed field order. The order is wire
// format: append only, never reorder (tests/sim/hns/hash_test.cpp pins it).
#include "sim/hns/sim.hpp"

namespace hschool::sim::hns {
namespace {

constexpr std::uint64_t kFnvOffset = 14695981039346656037ULL;
constexpr std::uint64_t kFnvPrime = 1099511628211ULL;

struct Mixer {
    std::uint64_t h = kFnvOffset;
    void u(std::uint64_t v) { h = (h ^ v) * kFnvPrime; }
    void i(std::int64_t v) { u(static_cast<std::uint64_t>(v)); }
    void b(bool v) { u(v ? 1 : 0); }
};

}  // namespace

std::uint64_t Sim::hash() const {
    Mixer m;
    // 1. the inherited block
    m.i(tickCount_);
    m.i(static_cast<int>(phase_));
    m.i(gameOverTimer_);
    m.i(gameStartTick_);
    m.i(startWaitTimer_);
    m.b(timeLimitReached_);
    m.i(nextJoinOrder_);
    m.i(static_cast<std::int64_t>(players_.size()));
    // 2. per player
    for (const Player& p : players_) {
        m.i(p.x);
        m.i(p.y);
        m.i(p.homeX);
        m.i(p.homeY);
        m.i(p.velX);
        m.i(p.velY);
        m.i(p.carryX);
        m.i(p.carryY);
        m.b(p.flipH);
        m.i(p.aimBrads);
        m.i(static_cast<int>(p.team));
        m.b(p.alive);
        m.i(p.lastShoutTick);
        m.i(p.joinOrder);
        m.u(p.color);
    }
    // 3. per player, the object layer's fields
    for (const Player& p : players_) {
        m.i(p.holding);
        m.b(p.airborne);
        m.i(p.vaultLeft);
        m.i(p.vaultDirBrads);
        m.i(p.lockCooldown);
        m.i(p.pushBlockedTicks);
    }
    // 4. objects
    m.i(static_cast<std::int64_t>(objects_.size()));
    for (const GameObject& o : objects_) {
        m.i(static_cast<int>(o.kind));
        m.i(static_cast<int>(o.axis));
        m.i(o.x);
        m.i(o.y);
        m.i(static_cast<int>(o.lockedBy));
        m.i(o.heldBy);
    }
    // 5. clock and counters
    m.i(static_cast<int>(matchPhase_));
    m.i(static_cast<std::int64_t>(config_.prepTurns) * config_.turnTicks);
    m.i(gameIndex_);
    m.i(hiddenTicks_);
    m.i(seenTicks_);
    // 6. per player
    for (const Player& p : players_) m.i(p.seatSeenTicks);
    // 7.
    m.u(sealedMask_);
    m.i(geometryEpoch_);
    // 8. shouts
    m.i(static_cast<std::int64_t>(shouts_.size()));
    for (const Shout& s : shouts_) {
        for (unsigned char ch : s.address) m.i(ch);
        m.i(static_cast<int>(s.team));
        for (unsigned char ch : s.text) m.i(ch);
        m.i(s.tick);
        m.i(s.x);
        m.i(s.y);
    }
    return m.h;
}

}  // namespace hschool::sim::hns
