#include "render/hns/scene.hpp"

#include <algorithm>

#include "protocol/sprite_pixels.hpp"
#include "render/hns/art.hpp"
#include "render/hns/ids.hpp"
#include "render/hns/scene_parts.hpp"
#include "sim/hns/constants.hpp"

namespace hschool::render::hns {
namespace {

using sim::hns::LockOwner;
using sim::hns::ObjectKind;
using sim::hns::Player;
using sim::hns::Team;

using namespace parts;

void add_cones(const sim::hns::Sim& sim, Scene& scene, int scale) {
    const auto& players = sim.players();
    for (int i = 0; i < static_cast<int>(players.size()); ++i)
        if (players[static_cast<std::size_t>(i)].alive && !sim.frozen_seeker(i))
            scene.items.push_back(cone_item(sim, i, scale));
}

bool spotted(const sim::hns::Sim& sim, int hider) {
    const auto& players = sim.players();
    for (int j = 0; j < static_cast<int>(players.size()); ++j) {
        const Player& s = players[static_cast<std::size_t>(j)];
        if (s.team == Team::Blue && s.alive && !sim.frozen_seeker(j) && sim.player_visible_to(j, hider)) return true;
    }
    return false;
}

void add_cogs(const sim::hns::Sim& sim, Scene& scene, int scale) {
    const auto& players = sim.players();
    const auto& objects = sim.objects();
    for (int i = 0; i < static_cast<int>(players.size()); ++i) {
        const Player& p = players[static_cast<std::size_t>(i)];
        if (!p.alive) continue;
        const int slot = p.joinOrder;
        scene.items.push_back(cog_item(p, scale, board_cog_z(p)));
        if (p.team == Team::Red && spotted(sim, i)) {
            scene.items.push_back(
                {sprite(kSpottedRingSpriteId, kSpottedRingPx, kSpottedRingPx, scale, spotted_ring_block(scale), "spotted ring"),
                 place(kSpottedRingObjectBase + slot, p.x - kSpottedRingPx / 2, p.y - kSpottedRingPx / 2, p.y + 3,
                       kSpottedRingSpriteId, scale),
                 false});
        }
        if (p.holding < 0 || p.holding >= static_cast<int>(objects.size())) continue;
        const auto& o = objects[static_cast<std::size_t>(p.holding)];
        const int ocx = o.x + o.w / 2, ocy = o.y + o.h / 2;
        const int dx = ocx - p.x, dy = ocy - p.y;
        const Canvas art = draw_tether(dx, dy).scaled(scale);
        SceneSprite s{u16(kTetherSpriteBase + slot), u16(art.width()), u16(art.height()),
                      std::make_shared<const protocol::Bytes>(protocol::sprite_v1::compress_rgba(art.pixels())),
                      "carry tether " + std::to_string(slot) + " " + std::to_string(dx) + "," + std::to_string(dy), true};
        scene.items.push_back({std::move(s),
                               place(kTetherObjectBase + slot, std::min(p.x, ocx) - 1, std::min(p.y, ocy) - 1, p.y + 1,
                                     kTetherSpriteBase + slot, scale),
                               false});
    }
}

void add_shouts(const sim::hns::Sim& sim, Scene& scene, int scale) {
    int bubble = 0;
    for (const auto& shout : sim.shouts()) {
        if (bubble >= kShoutMaxCount) break;
        const Canvas art = draw_shout_bubble(shout.text);
        SceneSprite s{u16(kShoutSpriteBase + bubble), u16(art.width() * scale), u16(art.height() * scale),
                      std::make_shared<const protocol::Bytes>(protocol::sprite_v1::compress_rgba(art.scaled(scale).pixels())),
                      "shout bubble " + shout.text, true};
        scene.items.push_back({std::move(s),
                               place(kShoutObjectBase + bubble, shout.x - art.width() / 2, shout.y - kCogBodyPx - art.height(),
                                     shout.y + kShoutZ, kShoutSpriteBase + bubble, scale),
                               false});
        ++bubble;
    }
}

}  // namespace

std::string cog_label(const Player& player) {
    return std::string("cog ") + (player.team == Team::Red ? "HIDER" : "SEEKER") + " own aim " +
           std::to_string(player.aimBrads);
}

std::string object_label(const sim::hns::GameObject& object) {
    const char* kind = object.kind == ObjectKind::Crate ? "crate" : object.kind == ObjectKind::Panel ? "panel" : "ramp";
    return (object.lockedBy == LockOwner::None ? std::string() : std::string("locked ")) + kind + " " + object.id;
}

std::string cone_label(int slot, int aim, int cone_deg, int range) {
    return "vision cone " + std::to_string(slot) + " aim " + std::to_string(aim) + " deg " + std::to_string(cone_deg) +
           " range " + std::to_string(range) + " on";
}

Scene player_scene(const sim::hns::Sim& sim, int player_index) {
    Scene scene{sim::hns::kMapWidth * kPlayerScale, sim::hns::kMapHeight * kPlayerScale, true, {}};
    const auto& players = sim.players();
    if (player_index < 0 || player_index >= static_cast<int>(players.size())) return scene;
    const Player& p = players[static_cast<std::size_t>(player_index)];
    scene.items.push_back(cog_item(p, kPlayerScale, p.y));
    return scene;
}

Scene global_scene(const sim::hns::Sim& sim) {
    Scene scene{sim::hns::kMapWidth * kGlobalScale, sim::hns::kMapHeight * kGlobalScale, false, {}};
    add_bands(sim, scene, kGlobalScale);
    add_cones(sim, scene, kGlobalScale);
    add_objects(sim, scene, kGlobalScale);
    add_cogs(sim, scene, kGlobalScale);
    add_shouts(sim, scene, kGlobalScale);
    return scene;
}

}  // namespace hschool::render::hns
