// Tick steps 10 and 11 (§3.13, §3.14): exposure scoring with the spotted latch, sealed time,
// and the sealed-fort flood fill. Integer only.
#include <algorithm>

#include "sim/hns/constants.hpp"
#include "sim/hns/sim.hpp"

namespace hschool::sim::hns {

void Sim::score_exposure() {
    const std::size_t n = players_.size();
    if (spottedPairs_.size() != n * n) spottedPairs_.assign(n * n, 0);
    bool anySeen = false;
    for (std::size_t s = 0; s < n; ++s) {
        if (players_[s].team != Team::Blue) continue;
        for (std::size_t h = 0; h < n; ++h) {
            if (players_[h].team != Team::Red) continue;
            const bool sees = players_[s].alive && players_[h].alive &&
                              player_visible_to(static_cast<int>(s), static_cast<int>(h));
            spottedPairs_[s * n + h] = sees;
            anySeen = anySeen || sees;
        }
    }
    for (std::size_t h = 0; h < n; ++h) {
        if (players_[h].team != Team::Red) continue;
        bool seen = false;
        for (std::size_t s = 0; s < n; ++s) seen = seen || (players_[s].team == Team::Blue && spottedPairs_[s * n + h]);
        if (seen) ++players_[h].seatSeenTicks;
    }
    ++huntTicksPlayed_;
    if (anySeen) ++seenTicks_;
    else ++hiddenTicks_;
    exposedNow_ = anySeen;
}

int Sim::current_margin() const {
    return huntTicksPlayed_ <= 0 ? 0 : (hiddenTicks_ - seenTicks_) * 1000 / huntTicksPlayed_;
}

int Sim::phase_ticks_left() const {
    const int tick = game_tick();
    if (matchPhase_ == MatchPhase::Prep) return std::max(0, config_.prepTicks() - tick);
    return std::max(0, config_.maxTicks() - tick);
}

void Sim::accrue_sealed_ticks() {
    for (Player& p : players_)
        if (p.team == Team::Red && p.sealed) ++p.sealedTicks;
}

void Sim::scan_sealed() {
    // The flood runs on the fog grid with a closed border, so a step needs no bounds test.
    constexpr int kPadW = kFovGridW + 2;
    constexpr char kOpen = 0, kClosed = 1, kReached = 2;
    std::vector<char> grid(static_cast<std::size_t>(kPadW) * (kFovGridH + 2), kClosed);
    auto padded = [](int cx, int cy) { return (cy + 1) * kPadW + cx + 1; };
    for (int cy = 0; cy < kFovGridH; ++cy)
        for (int cx = 0; cx < kFovGridW; ++cx) grid[padded(cx, cy)] = wallCells_[cy * kFovGridW + cx] ? kClosed : kOpen;
    for (const GameObject& o : objects_) {
        if (o.lockedBy != LockOwner::Hiders) continue;
        const int gx0 = std::clamp(o.x / kFovCellSize, 0, kFovGridW - 1);
        const int gy0 = std::clamp(o.y / kFovCellSize, 0, kFovGridH - 1);
        const int gx1 = std::clamp((o.x + o.w - 1) / kFovCellSize, 0, kFovGridW - 1);
        const int gy1 = std::clamp((o.y + o.h - 1) / kFovCellSize, 0, kFovGridH - 1);
        for (int gy = gy0; gy <= gy1; ++gy)
            for (int gx = gx0; gx <= gx1; ++gx) grid[padded(gx, gy)] = kClosed;
    }
    auto cell = [&](const Player& p) {
        return padded(std::clamp(p.x / kFovCellSize, 0, kFovGridW - 1), std::clamp(p.y / kFovCellSize, 0, kFovGridH - 1));
    };
    // A seeker's own cell is reached even when it is closed; the flood enters open cells only.
    std::vector<int> queue;
    for (const Player& p : players_) {
        if (p.team != Team::Blue || !p.alive) continue;
        const int i = cell(p);
        if (grid[i] != kReached) {
            grid[i] = kReached;
            queue.push_back(i);
        }
    }
    constexpr int kSteps[4] = {1, -1, kPadW, -kPadW};
    for (std::size_t head = 0; head < queue.size(); ++head)
        for (const int step : kSteps) {
            const int next = queue[head] + step;
            if (grid[next] != kOpen) continue;
            grid[next] = kReached;
            queue.push_back(next);
        }
    std::uint64_t mask = 0;
    for (std::size_t s = 0; s < players_.size(); ++s) {
        Player& p = players_[s];
        if (p.team != Team::Red) continue;
        p.sealed = grid[cell(p)] != kReached;
        if (p.sealed && s < 64) mask |= 1ULL << s;
    }
    sealedMask_ = mask;
}

}  // namespace hschool::sim::hns
