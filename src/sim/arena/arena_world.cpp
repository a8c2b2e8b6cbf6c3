#include "sim/arena/arena_world.hpp"

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <type_traits>

#include "sim/arena/colours.hpp"
#include "sim/arena/layout.hpp"
#include "sim/arena/state_hash.hpp"
#include "sim/arena/systems.hpp"

namespace hschool::sim::arena {
namespace {

namespace v1 = protocol::v1;

// The last id is kept back so the counter can never wrap round to an id already handed out.
constexpr std::uint32_t kLastNetworkId = std::numeric_limits<std::uint32_t>::max() - 1;

[[noreturn]] void invalid_settings(std::string_view reason) {
    std::fprintf(stderr, "ArenaWorld: invalid settings: %.*s\n", static_cast<int>(reason.size()), reason.data());
    std::abort();
}

}  // namespace

ArenaWorld::ArenaWorld(const ArenaSettings& settings) : settings_(settings) {
    if (auto problem = validate(settings_)) invalid_settings(*problem);
    for (const Circle& circle : place_obstacles(settings_)) {
        const ecs::Entity e =
            spawn(next_network_id_++, circle.x, circle.y, Renderable{v1::kind::kObstacle, circle.radius, kObstacleColour});
        registry_.add(e, StaticObstacle{});
    }
}

std::uint32_t ArenaWorld::apply(const ArenaCommand& command) {
    return std::visit(
        [this](const auto& c) -> std::uint32_t {
            using C = std::decay_t<decltype(c)>;
            if constexpr (std::is_same_v<C, JoinCommand>) return join(c);
            else if constexpr (std::is_same_v<C, LeaveCommand>) leave(c);
            else input(c);
            return kNoId;
        },
        command);
}

void ArenaWorld::step() {
    const StepContext context{settings_, step_seconds(settings_)};
    for (System system : kArenaSystems) system(registry_, context);
    ++tick_;
}

bool ArenaWorld::can_join() const {
    return player_count() < kMaxPlayers && next_network_id_ <= kLastNetworkId;
}

std::uint32_t ArenaWorld::join(const JoinCommand& command) {
    if (!can_join()) return kNoId;
    const std::uint32_t id = next_network_id_++;
    const auto spawns = spawn_points(settings_);
    const Point at = spawns[joins_ % kSpawnPointCount];
    const ecs::Entity e =
        spawn(id, at.x, at.y, Renderable{v1::kind::kPlayer, settings_.player_radius, player_colour(joins_)});
    ++joins_;
    registry_.add(e, Velocity{});
    registry_.add(e, PlayerControl{id, 0, 0});
    registry_.add(e, Name{command.name.empty() ? "Player " + std::to_string(id) : command.name});
    return id;
}

void ArenaWorld::leave(const LeaveCommand& command) {
    const auto e = find_player(command.player_id);
    if (!e) return;
    registry_.destroy(*e);
    by_network_id_.erase(command.player_id);
}

void ArenaWorld::input(const InputCommand& command) {
    const auto e = find_player(command.player_id);
    if (!e) return;
    PlayerControl& control = *registry_.find<PlayerControl>(*e);
    if (command.sequence < control.last_sequence) return;  // a late packet must not undo newer intent
    control.last_sequence = command.sequence;
    control.buttons = command.buttons & v1::buttons::kKnown;
}

std::optional<ecs::Entity> ArenaWorld::find_player(std::uint32_t player_id) const {
    const auto found = by_network_id_.find(player_id);
    if (found == by_network_id_.end() || !registry_.pool<PlayerControl>().contains(found->second)) return std::nullopt;
    return found->second;
}

std::optional<std::string_view> ArenaWorld::player_name(std::uint32_t player_id) const {
    const auto e = find_player(player_id);
    if (!e) return std::nullopt;
    return std::string_view(registry_.find<Name>(*e)->text);
}

ecs::Entity ArenaWorld::spawn(std::uint32_t network_id, float x, float y, Renderable look) {
    const ecs::Entity e = registry_.create();
    registry_.add(e, NetworkId{network_id});
    registry_.add(e, Position{x, y});
    registry_.add(e, look);
    by_network_id_.emplace(network_id, e);
    return e;
}

std::uint64_t ArenaWorld::state_hash() const {
    StateHasher h;
    h.u32(tick_);
    h.u32(next_network_id_);
    h.u32(joins_);
    h.u64(by_network_id_.size());
    for (const auto& [id, e] : by_network_id_) {
        h.u32(id);
        const Position& position = *registry_.find<Position>(e);
        const Renderable& look = *registry_.find<Renderable>(e);
        h.u8(look.kind);
        h.f32(position.x);
        h.f32(position.y);
        h.f32(look.radius);
        h.u32(look.colour);
        if (const Velocity* velocity = registry_.find<Velocity>(e)) {
            h.f32(velocity->x);
            h.f32(velocity->y);
        }
        if (const PlayerControl* control = registry_.find<PlayerControl>(e)) {
            h.u32(control->owner);
            h.u8(control->buttons);
            h.u32(control->last_sequence);
        }
        if (const Name* name = registry_.find<Name>(e)) h.text(name->text);
    }
    return h.value();
}

void ArenaWorld::capture_snapshot(protocol::v1::Snapshot& out) const {
    out.tick = tick_;
    out.entities.clear();  // keeps the capacity
    for (const auto& [id, e] : by_network_id_) {
        const Position& position = *registry_.find<Position>(e);
        const Renderable& look = *registry_.find<Renderable>(e);
        out.entities.push_back({id, look.kind, position.x, position.y, look.radius, look.colour});
    }
}

}  // namespace hschool::sim::arena
