#include "sim/arena/systems.hpp"

#include <algorithm>
#include <cmath>

#include "protocol/v1.hpp"

namespace hschool::sim::arena {
namespace {

namespace buttons = protocol::v1::buttons;

int axis(std::uint8_t mask, std::uint8_t negative, std::uint8_t positive) {
    return ((mask & positive) ? 1 : 0) - ((mask & negative) ? 1 : 0);
}

void push_out(Position& avatar, float avatar_radius, const Position& centre, float obstacle_radius) {
    const float reach = avatar_radius + obstacle_radius;
    const float dx = avatar.x - centre.x;
    const float dy = avatar.y - centre.y;
    const float distance_squared = dx * dx + dy * dy;
    if (distance_squared >= reach * reach) return;
    const float distance = std::sqrt(distance_squared);
    if (distance == 0.0f) {
        // Dead centre has no direction; +x is an arbitrary but fixed choice.
        avatar.x = centre.x + reach;
        return;
    }
    avatar.x = centre.x + dx / distance * reach;
    avatar.y = centre.y + dy / distance * reach;
}

}  // namespace

void player_input_system(ArenaRegistry& registry, const StepContext& context) {
    const float speed = context.settings.player_speed;
    registry.each<PlayerControl, Velocity>([&](ecs::Entity, PlayerControl& control, Velocity& velocity) {
        // Screen coordinates: y grows downwards, so "up" is negative y.
        const int x = axis(control.buttons, buttons::kLeft, buttons::kRight);
        const int y = axis(control.buttons, buttons::kUp, buttons::kDown);
        const float scale = (x != 0 && y != 0) ? speed * kDiagonalScale : speed;
        velocity.x = static_cast<float>(x) * scale;
        velocity.y = static_cast<float>(y) * scale;
    });
}

void movement_system(ArenaRegistry& registry, const StepContext& context) {
    registry.each<Velocity, Position>([&](ecs::Entity, Velocity& velocity, Position& position) {
        position.x += velocity.x * context.dt;
        position.y += velocity.y * context.dt;
    });
}

void obstacle_collision_system(ArenaRegistry& registry, const StepContext&) {
    auto& obstacles = registry.pool<StaticObstacle>();
    registry.each<PlayerControl, Position, Renderable>(
        [&](ecs::Entity, PlayerControl&, Position& avatar, Renderable& avatar_shape) {
            for (std::size_t slot = 0; slot < obstacles.size(); ++slot) {
                const ecs::Entity obstacle = obstacles.owner_at(slot);
                const Position* centre = registry.find<Position>(obstacle);
                const Renderable* shape = registry.find<Renderable>(obstacle);
                if (centre && shape) push_out(avatar, avatar_shape.radius, *centre, shape->radius);
            }
        });
}

void world_bounds_system(ArenaRegistry& registry, const StepContext& context) {
    const float width = context.settings.width;
    const float height = context.settings.height;
    registry.each<PlayerControl, Position, Renderable>(
        [&](ecs::Entity, PlayerControl&, Position& position, Renderable& shape) {
            position.x = std::clamp(position.x, shape.radius, width - shape.radius);
            position.y = std::clamp(position.y, shape.radius, height - shape.radius);
        });
}

}  // namespace hschool::sim::arena
