#pragma once
// The seats' driver (spec §3.15, the reference's control.nim): turns a standing order into one
// cog's input mask each tick — navigation grid and flow fields, steering, aim dead band, stuck
// handling, watch sweep, push and standoff. Outside the determinism boundary (its masks are
// what gets recorded), so it may use float navigation maths like the reference.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "sim/hns/orders.hpp"
#include "sim/hns/sim.hpp"

namespace hschool::sim::hns {

inline constexpr int kNavCell = 12;
inline constexpr int kFieldRefreshTicks = 12;
inline constexpr std::size_t kMaxCachedFields = 64;
inline constexpr int kArriveRadius = 20;
inline constexpr int kAimMinRangeSq = 16 * 16;
inline constexpr int kAimDeadBrads = 4;
inline constexpr int kStuckTicks = 8;
inline constexpr int kWatchSweepBrads = 32;
inline constexpr int kStandoffPx = 18;
inline constexpr int kPushGiveUpTicks = 120;
inline constexpr int kHuntMemoryTicks = 72;
// `watch` looks at a point this far ahead by default, and aims through one this far out.
inline constexpr int kWatchLookPx = 64;
inline constexpr int kWatchAimPx = 128;
// The watch sweep changes phase every this many ticks.
inline constexpr int kWatchSweepPhaseTicks = 24;

struct KnownEnemy {
    bool known = false;
    int x = 0, y = 0, index = -1, ticksAgo = 0;
};

class Driver {
public:
    explicit Driver(const Sim& sim);
    // Once per Playing tick, before compiling: enemy memory, stuck and push progress, nav grid.
    void observe(const Sim& sim);
    std::uint8_t compile_mask(const Sim& sim, const Order& order, int slot);
    KnownEnemy known_enemy(const Sim& sim, int slot) const;
    // Whether known_enemy reports what a cog saw: the sim's game version decides (F1, on from
    // GameVersion 2); set_enemy_memory overrides it (GameVersion 1 with memory is the "ke" rows
    // of variants_sensitivity.json).
    void set_enemy_memory(bool on) { enemyMemory_ = on; }
    bool enemy_memory() const { return enemyMemory_; }

private:
    friend struct DriverProbe;  // the differential tests and the microbenchmarks (issue 42)
    struct Goal {
        int x, y;
    };
    void build_grid(const Sim& sim);
    bool update_grid(const Sim& sim);
    int cell_of(int x, int y) const;
    Goal centre(int cell) const;
    int nearest_open(int x, int y) const;
    const std::vector<int>& field_for(int goal);
    Goal steer(int fromX, int fromY, int goalX, int goalY);
    Goal goal_for(const Sim& sim, const Order& order, int slot) const;
    Goal order_point(const Sim& sim, const Order& order, int fx, int fy) const;

    bool enemyMemory_ = false;
    int gridW_ = 0, gridH_ = 0;
    std::vector<char> open_;
    std::vector<Rect> gridRects_;  // the objects' rects open_ was last tested against
    int gridEpoch_ = 0, gridTick_ = 0;
    std::unordered_map<int, std::vector<int>> fields_;
    std::vector<int> queue_;  // the fields' breadth-first queue, kept between fields
    std::vector<int> lastSeenX_, lastSeenY_, lastSeenTick_, lastSeenIndex_;
    std::vector<int> lastX_, lastY_, stuck_, pushTicks_, pushX_, pushY_, sweep_;
};

// Signed shortest turn from current to desired, in brads (+ is B, counter-clockwise).
int brads_err(int desired, int current);
int brads_of_vector(int dx, int dy);

}  // namespace hschool::sim::hns
