#include "render/hns/scene_parts.hpp"

#include "render/hns/art_cache.hpp"

namespace hschool::render::hns::parts {

using sim::hns::LockOwner;
using sim::hns::Player;
using sim::hns::Team;

SceneItem cog_item(const Player& p, int scale, int z) {
    const int rot = cog_rot(p.aimBrads);
    const int team = p.team == Team::Red ? 0 : 1;
    const int sprite_id = cog_sprite_id(team, rot);
    return SceneItem{sprite(sprite_id, kCogCanvas, kCogCanvas, scale, cog_block(p.team, rot, scale), cog_label(p)),
                     place(kCogObjectBase + p.joinOrder, p.x - kCogDrawOffset, p.y - kCogDrawOffset, z, sprite_id, scale),
                     false};
}

SceneItem cone_item(const sim::hns::Sim& sim, int index, int scale) {
    const auto& c = sim.config();
    const Player& p = sim.players()[static_cast<std::size_t>(index)];
    const int side = c.sightRange * 2 + 2;
    const int slot = p.joinOrder;
    SceneSprite s{u16(kConeSpriteBase + slot), u16(side * scale), u16(side * scale),
                  cone_block(p.aimBrads, p.team == Team::Blue, c.sightRange, c.visionConeDeg, scale),
                  cone_label(slot, p.aimBrads, c.visionConeDeg, c.sightRange), false};
    return SceneItem{std::move(s),
                     place(kConeObjectBase + slot, p.x - side / 2, p.y - side / 2, kConeZ, kConeSpriteBase + slot, scale),
                     false};
}

void add_bands(const sim::hns::Sim& sim, Scene& scene, int scale) {
    const auto& room = sim.room();
    const auto blocks = band_blocks(sim.config().mapSpec, room, scale);
    for (int b = 0; b < static_cast<int>(blocks.size()); ++b) {
        const int y0 = b * kMapBandLogicalHeight;
        const int rows = std::min(kMapBandLogicalHeight, room.height - y0);
        scene.items.push_back({sprite(kMapBandSpriteBase + b, room.width, rows, scale, blocks[static_cast<std::size_t>(b)],
                                      "map band " + std::to_string(b)),
                               place(kMapBandObjectBase + b, 0, y0, kMapBandZ, kMapBandSpriteBase + b, scale), true});
    }
}

void add_objects(const sim::hns::Sim& sim, Scene& scene, int scale) {
    const auto& objects = sim.objects();
    for (int i = 0; i < static_cast<int>(objects.size()); ++i) {
        const auto& o = objects[static_cast<std::size_t>(i)];
        scene.items.push_back({sprite(kObjectSpriteBase + i, o.w, o.h, scale,
                                      object_block(o.kind, o.w, o.h, o.lockedBy, scale), object_label(o)),
                               place(kObjectObjectBase + i, o.x, o.y, o.y, kObjectSpriteBase + i, scale), false});
        if (o.lockedBy == LockOwner::None) continue;
        scene.items.push_back({sprite(kPadlockSpriteId, kPadlockPx, kPadlockPx, scale, padlock_block(scale), "padlock"),
                               place(kPadlockObjectBase + i, o.x + o.w / 2 - kPadlockPx / 2, o.y + o.h / 2 - kPadlockPx / 2,
                                     o.y + 1, kPadlockSpriteId, scale),
                               false});
    }
}

}  // namespace hschool::render::hns::parts
