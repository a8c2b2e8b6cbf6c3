#pragma once
// Building blocks shared by the scenes (spec §4.2 table): one placement or family at a given
// scale, so the global (2×) and manual (1×) boards draw the same ids, labels and z.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "render/hns/ids.hpp"
#include "render/hns/scene.hpp"
#include "sim/hns/sim.hpp"

namespace hschool::render::hns::parts {

inline std::int16_t i16(int v) {
    return static_cast<std::int16_t>(std::clamp(v, int{std::numeric_limits<std::int16_t>::min()},
                                                int{std::numeric_limits<std::int16_t>::max()}));
}
inline std::uint16_t u16(int v) { return static_cast<std::uint16_t>(v); }

// A board placement: x and y scale with the board, z never does (§4.2).
inline protocol::sprite_v1::DefineObject place(int object_id, int x, int y, int z, int sprite_id, int scale) {
    return protocol::sprite_v1::DefineObject{u16(object_id), i16(x * scale), i16(y * scale), i16(z), kMapLayer,
                                             u16(sprite_id)};
}

inline SceneSprite sprite(int id, int logical_w, int logical_h, int scale, Block block, std::string label) {
    return SceneSprite{u16(id), u16(logical_w * scale), u16(logical_h * scale), std::move(block), std::move(label), false};
}

// A cog on the board stands at y+2, or y+500 while airborne.
inline int board_cog_z(const sim::hns::Player& p) { return p.y + (p.airborne ? kCogAirborneZ : kCogGlobalZ); }

SceneItem cog_item(const sim::hns::Player& p, int scale, int z);
// Player `index`'s torch; the caller checks it is alive and not a frozen seeker.
SceneItem cone_item(const sim::hns::Sim& sim, int index, int scale);
// The room bands, sent on the first frame only.
void add_bands(const sim::hns::Sim& sim, Scene& scene, int scale);
// Every object, each followed by its padlock when locked.
void add_objects(const sim::hns::Sim& sim, Scene& scene, int scale);

}  // namespace hschool::render::hns::parts
