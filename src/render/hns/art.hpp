#pragma once
// Procedural pixels for every family, in the spec's colours (§4.2 "visual details"). Pixels are
// decorative; ids and labels are the contract. Sizes are logical unless a scale is passed.
#include <string>
#include <vector>

#include "render/hns/canvas.hpp"
#include "sim/hns/room.hpp"
#include "sim/hns/state.hpp"

namespace hschool::render::hns {

inline constexpr Rgba kHiderBlue{63, 124, 196, 255};
inline constexpr Rgba kSeekerRed{224, 82, 58, 255};

// The team that hides is Red in the sim and drawn blue (§7.10).
Rgba team_colour(sim::hns::Team team);

Canvas draw_cog(sim::hns::Team team, int rot, int scale);
// The unclipped wedge of one cog's torch (the largest sprite), upscaled like the others.
Canvas draw_cone(int aim_brads, bool seeker, int range, int cone_deg, int scale);
Canvas draw_object(sim::hns::ObjectKind kind, int w, int h, sim::hns::LockOwner locked_by);
Canvas draw_padlock();
Canvas draw_spotted_ring();
Canvas draw_tether(int dx, int dy);
Canvas draw_shout_bubble(const std::string& text);
// The baked room bed: darkened floor and textured walls, at 1×.
Canvas draw_room(const sim::hns::Room& room);

}  // namespace hschool::render::hns
