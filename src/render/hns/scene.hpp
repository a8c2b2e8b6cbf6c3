#pragma once
// What one stream draws this tick, in emission order (spec §4.1, §4.2): built once per tick per
// stream kind and shared by every viewer of it; stream.hpp turns it into each viewer's diff.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/sprite_v1.hpp"
#include "render/hns/art_cache.hpp"
#include "sim/hns/sim.hpp"

namespace hschool::render::hns {

struct SceneSprite {
    std::uint16_t id = 0;
    std::uint16_t width = 0, height = 0;  // wire pixels
    Block block;                          // compressed width·height·4 RGBA
    std::string label;
    bool always_send = false;  // tethers and shouts are re-sent every frame (§1.3)
};

struct SceneItem {
    std::optional<SceneSprite> sprite;  // defined just before its placement, when it changed
    protocol::sprite_v1::DefineObject object;
    bool first_frame_only = false;  // the map bands
    bool sprite_only = false;       // the replay chrome (§4.5): a sprite, no object placed, never deleted
};

struct Scene {
    int viewport_width = 0, viewport_height = 0;
    bool dedup_placements = false;  // the player stream drops unchanged placements
    std::vector<SceneItem> items;
};

// Labels exactly as §4 gives them.
std::string cog_label(const sim::hns::Player& player);
std::string object_label(const sim::hns::GameObject& object);
std::string cone_label(int slot, int aim, int cone_deg, int range);

// The seat's own cog at 1×, nothing else; an index that is no player draws nothing.
Scene player_scene(const sim::hns::Sim& sim, int player_index);
// The spectator board at 2×: bands, cones, objects with padlocks, cogs with rings and tethers, shouts.
Scene global_scene(const sim::hns::Sim& sim);

}  // namespace hschool::render::hns
