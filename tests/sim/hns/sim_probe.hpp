#pragma once
// The Sim's and the Driver's hot internals, reached by the differential tests and the hns
// microbenchmarks (issue 42): the friends sim.hpp and driver.hpp name.
#include <vector>

#include "sim/hns/driver.hpp"
#include "sim/hns/sim.hpp"

namespace hschool::sim::hns {

struct SimProbe {
    static bool can_occupy_ignoring(const Sim& s, int x, int y, int ignore) { return s.can_occupy_ignoring(x, y, ignore); }
    static bool can_place_object(const Sim& s, int index, const Rect& r, int holder) {
        return s.can_place_object(index, r, holder);
    }
    static bool rect_hits_wall(const Sim& s, const Rect& r) { return s.rect_hits_wall(r); }
    static bool keep_clear_violated(const Sim& s, const Rect& r) { return s.keep_clear_violated(r); }
    static const std::vector<char>& fov_blocked(const Sim& s) { return s.fovBlocked_; }
    static const std::vector<char>& wall_cells(const Sim& s) { return s.wallCells_; }
    // Moves an object by (dx, dy) through the sim's own path (masks, fog cells, caches).
    static void move_object(Sim& s, int index, int dx, int dy) { s.move_object(index, dx, dy); }
    static void set_aim(Sim& s, int slot, int brads) { s.players_[slot].aimBrads = brads; }
    static void set_side(Sim& s, int slot, Team team, bool alive) {
        s.players_[slot].team = team;
        s.players_[slot].alive = alive;
    }
    static void set_lock(Sim& s, int index, LockOwner owner) { s.objects_[index].lockedBy = owner; }
    static void scan_sealed(Sim& s) { s.scan_sealed(); }
    static void refresh_player_fov(Sim& s, int slot) { s.refresh_player_fov(slot); }
    static const FovCache& fov(const Sim& s, int slot) { return s.fov_[slot]; }
    static void compute_shadowcast(const Sim& s, int cx, int cy, std::vector<char>& out) { s.compute_shadowcast(cx, cy, out); }
    static void apply_cone(Sim& s, int cx, int cy, int aim, const std::vector<char>& cast, std::vector<char>& out) {
        s.apply_cone(cx, cy, aim, cast, out);
    }
};

struct DriverProbe {
    static const std::vector<char>& open(const Driver& d) { return d.open_; }
    static int grid_w(const Driver& d) { return d.gridW_; }
    static int grid_h(const Driver& d) { return d.gridH_; }
    static const std::vector<int>& field_for(Driver& d, int goal) { return d.field_for(goal); }
    // What observe() does to the grid when the furniture moved.
    static bool update_grid(Driver& d, const Sim& sim) { return d.update_grid(sim); }
    static void build_grid(Driver& d, const Sim& sim) { d.build_grid(sim); }
    static void drop_fields(Driver& d) { d.fields_.clear(); }
};

}  // namespace hschool::sim::hns
