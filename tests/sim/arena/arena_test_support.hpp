#pragma once
// Helpers shared by the arena tests.
#include <cmath>
#include <optional>

#include "protocol/v1.hpp"
#include "sim/arena/arena_world.hpp"

namespace hschool::sim::arena::testing {

inline constexpr float kTolerance = 1e-3f;

inline ArenaSettings empty_field() {
    ArenaSettings s;
    s.obstacle_count = 0;
    return s;
}

inline std::optional<protocol::v1::EntityState> find_entity(const ArenaWorld& world, std::uint32_t id) {
    protocol::v1::Snapshot snapshot;
    world.capture_snapshot(snapshot);
    for (const auto& e : snapshot.entities)
        if (e.id == id) return e;
    return std::nullopt;
}

inline protocol::v1::EntityState entity(const ArenaWorld& world, std::uint32_t id) {
    auto found = find_entity(world, id);
    return found.value_or(protocol::v1::EntityState{});
}

inline void press(ArenaWorld& world, std::uint32_t id, std::uint32_t sequence, std::uint8_t buttons) {
    world.apply(InputCommand{id, sequence, buttons});
}

inline float distance(float ax, float ay, float bx, float by) { return std::hypot(ax - bx, ay - by); }

}  // namespace hschool::sim::arena::testing
