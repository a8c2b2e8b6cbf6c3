#include "render/hns/manual_scene.hpp"

#include "render/hns/ids.hpp"
#include "render/hns/scene_parts.hpp"
#include "sim/hns/constants.hpp"

namespace hschool::render::hns {
namespace {

using sim::hns::Player;

// A frozen seeker is blindfolded: its fog is not computed, and the sim reads a missing fog as
// "sees everything", so it must be ruled out here, not left to player_visible_to.
bool can_see(const sim::hns::Sim& sim, int viewer) {
    return sim.players()[static_cast<std::size_t>(viewer)].alive && !sim.frozen_seeker(viewer);
}

}  // namespace

Scene manual_scene(const sim::hns::Sim& sim, int player_index) {
    Scene scene{sim::hns::kMapWidth * kPlayerScale, sim::hns::kMapHeight * kPlayerScale, true, {}};
    const auto& players = sim.players();
    if (player_index < 0 || player_index >= static_cast<int>(players.size())) return scene;
    const Player& me = players[static_cast<std::size_t>(player_index)];
    const bool sees = can_see(sim, player_index);
    parts::add_bands(sim, scene, kPlayerScale);
    if (sees) scene.items.push_back(parts::cone_item(sim, player_index, kPlayerScale));
    parts::add_objects(sim, scene, kPlayerScale);
    for (int i = 0; i < static_cast<int>(players.size()); ++i) {
        const Player& p = players[static_cast<std::size_t>(i)];
        if (i == player_index || !p.alive) continue;
        if (p.team != me.team && !(sees && sim.player_visible_to(player_index, i))) continue;
        scene.items.push_back(parts::cog_item(p, kPlayerScale, parts::board_cog_z(p)));
    }
    // Last, so a cog sprite shared with a teammate (same team and rotation) ends the frame
    // carrying this seat's own aim label.
    scene.items.push_back(parts::cog_item(me, kPlayerScale, parts::board_cog_z(me)));
    return scene;
}

}  // namespace hschool::render::hns
