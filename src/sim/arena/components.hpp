#pragma once
// Arena components: plain data. Protocol structs are built from these, never stored as them.
#include <cstdint>
#include <string>

#include "sim/arena/ecs.hpp"

namespace hschool::sim::arena {

struct Position {
    float x = 0;
    float y = 0;
};

// Units per second; the movement system scales it by the fixed step.
struct Velocity {
    float x = 0;
    float y = 0;
};

// Level-based intent: the latest accepted mask applies every tick until it changes.
struct PlayerControl {
    std::uint32_t owner = 0;          // the player id the server knows, equal to the NetworkId
    std::uint8_t buttons = 0;         // only protocol::v1::buttons::kKnown bits are kept
    std::uint32_t last_sequence = 0;  // inputs with a lower sequence are stale
};

struct Renderable {
    std::uint8_t kind = 0;  // protocol::v1::kind
    float radius = 0;
    std::uint32_t colour = 0;  // 0x00RRGGBB
};

// Stable replication id; entity slots are recycled, replication ids never are.
struct NetworkId {
    std::uint32_t value = 0;
};

struct Name {
    std::string text;
};

// Tag: an immovable circle that avatars are pushed out of.
struct StaticObstacle {};

using ArenaRegistry =
    ecs::Registry<Position, Velocity, PlayerControl, Renderable, NetworkId, Name, StaticObstacle>;

}  // namespace hschool::sim::arena
