#pragma once
// The arena world: avatars moved by button masks among static obstacles, stepped at a fixed rate.
// Owned by one thread (the game loop); no sockets, no clock, no files.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>

#include "protocol/v1.hpp"
#include "sim/arena/arena_commands.hpp"
#include "sim/arena/arena_settings.hpp"
#include "sim/arena/components.hpp"

namespace hschool::sim::arena {

// Replication id 0 means "no entity" (apply() returns it for anything but a successful join).
inline constexpr std::uint32_t kNoId = 0;
inline constexpr std::uint32_t kFirstNetworkId = 1;
// Most avatars at once: every one needs a v5 slot, and a v5 keyframe lists at most 16,383.
// v1's smaller ceiling (a 64 KiB snapshot) is the server's to apply to v1 clients.
inline constexpr std::size_t kMaxPlayers = 16383;

class ArenaWorld {
public:
    // settings must pass validate(); anything else is the caller's bug and aborts.
    explicit ArenaWorld(const ArenaSettings& settings);

    // Applies one command before the next step. Join returns the new avatar's replication id, or
    // kNoId when the world is full; Leave and Input return kNoId and ignore unknown ids.
    std::uint32_t apply(const ArenaCommand& command);

    // One fixed step of 1/tick_rate seconds through kArenaSystems; increments tick().
    void step();

    std::uint32_t tick() const { return tick_; }
    std::uint64_t state_hash() const;

    // Fills tick and every entity (obstacles and players) in replication-id order, reusing the
    // capacity of out.entities.
    void capture_snapshot(protocol::v1::Snapshot& out) const;

    std::size_t entity_count() const { return by_network_id_.size(); }
    std::size_t player_count() const { return registry_.pool<PlayerControl>().size(); }
    std::size_t obstacle_count() const { return registry_.pool<StaticObstacle>().size(); }
    // False when kMaxPlayers avatars are in (or the ids ran out).
    bool can_join() const;
    const ArenaSettings& settings() const { return settings_; }

    bool has_player(std::uint32_t player_id) const { return find_player(player_id).has_value(); }
    std::optional<std::string_view> player_name(std::uint32_t player_id) const;

private:
    std::uint32_t join(const JoinCommand& command);
    void leave(const LeaveCommand& command);
    void input(const InputCommand& command);
    std::optional<ecs::Entity> find_player(std::uint32_t player_id) const;
    ecs::Entity spawn(std::uint32_t network_id, float x, float y, Renderable look);

    ArenaSettings settings_;
    ArenaRegistry registry_;
    // Ordered by replication id: snapshots and the hash walk it, so its order is the wire order.
    std::map<std::uint32_t, ecs::Entity> by_network_id_;
    std::uint32_t tick_ = 0;
    std::uint32_t next_network_id_ = kFirstNetworkId;  // monotonic: ids are never reused
    std::uint32_t joins_ = 0;                          // picks the spawn point and colour
};

}  // namespace hschool::sim::arena
