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
    std::vector<char> locked(kFovCellCount, 0);
    for (const GameObject& o : objects_) {
        if (o.lockedBy != LockOwner::Hiders) continue;
        const int gx0 = std::clamp(o.x / kFovCellSize, 0, kFovGridW - 1);
        const int gy0 = std::clamp(o.y / kFovCellSize, 0, kFovGridH - 1);
        const int gx1 = std::clamp((o.x + o.w - 1) / kFovCellSize, 0, kFovGridW - 1);
        const int gy1 = std::clamp((o.y + o.h - 1) / kFovCellSize, 0, kFovGridH - 1);
        for (int gy = gy0; gy <= gy1; ++gy)
            for (int gx = gx0; gx <= gx1; ++gx) locked[gy * kFovGridW + gx] = 1;
    }
    auto cell = [](const Player& p) {
        return std::clamp(p.y / kFovCellSize, 0, kFovGridH - 1) * kFovGridW + std::clamp(p.x / kFovCellSize, 0, kFovGridW - 1);
    };
    std::vector<char> reached(kFovCellCount, 0);
    std::vector<int> queue;
    for (const Player& p : players_) {
        if (p.team != Team::Blue || !p.alive) continue;
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
            if (reached[next] || wallCells_[next] || locked[next]) continue;
            reached[next] = 1;
            queue.push_back(next);
        }
    }
    std::uint64_t mask = 0;
    for (std::size_t s = 0; s < players_.size(); ++s) {
        Player& p = players_[s];
        if (p.team != Team::Red) continue;
        p.sealed = !reached[cell(p)];
        if (p.sealed && s < 64) mask |= 1ULL << s;
    }
    sealedMask_ = mask;
}

}  // namespace hschool::sim::hns
