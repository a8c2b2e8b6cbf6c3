#pragma once
// A manual seat's fogged board (our extension of the player stream, §4.1/§4.4): at 1× the room,
// every object, the seat's teammates, and enemies only where its own fog shows them.
#include "render/hns/scene.hpp"
#include "sim/hns/sim.hpp"

namespace hschool::render::hns {

// Bands (first frame only), the seat's own cone when it can see, objects with padlocks, teammates,
// enemies its fog shows (never more than Sim::player_visible_to), its own cog last. Ids, labels
// and z as the global stream's, at scale 1; placements deduplicated, vanished ids deleted by
// Stream. An index that is no player draws nothing.
Scene manual_scene(const sim::hns::Sim& sim, int player_index);

}  // namespace hschool::render::hns
