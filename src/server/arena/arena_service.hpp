#pragma once
// The arena on the loop thread: v1 and v5 connections joined to the one shared ArenaWorld.
// v1 clients share one snapshot per tick; v5 clients get per-connection deltas, encoded on their
// network threads from one set of tick artefacts built here in O(N).
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <queue>
#include <unordered_map>
#include <vector>

#include "protocol/v1.hpp"
#include "server/arena/arena_metrics.hpp"
#include "server/arena/commands.hpp"
#include "net/fanout.hpp"
#include "net/transport_metrics.hpp"
#include "server/arena/input_fifo.hpp"
#include "server/arena/limits.hpp"
#include "sim/arena/arena_world.hpp"
#include "sim/arena/v5/delta_encoder.hpp"

namespace hschool::server {

// Whether a v5 connection sits this tick out (its next Frame then coalesces the ticks it missed):
// its client is slow (the socket is full) with kV5QueuedFrames unwritten, or kV5MaxQueuedFrames
// wait whatever the reason. A thread that is only behind keeps coding from the tick's deltas and
// writes the queue in one sendmsg; skipping it would cost a merge per connection (bench/README).
inline bool skip_v5_frame(std::size_t queued, bool socket_full) {
    return queued >= kV5MaxQueuedFrames || (socket_full && queued >= kV5QueuedFrames);
}


class ReplayRecorder;

class ArenaService {
public:
    ArenaService(const sim::arena::ArenaSettings& settings, ArenaMetrics& metrics, ReplayRecorder* recorder = nullptr,
                 std::size_t max_players = kDefaultMaxPlayers);

    void join(const cmd::ArenaJoin& command);
    void join_v5(const cmd::ArenaJoinV5& command);
    void input(const cmd::ArenaInput& command);
    void disconnect(net::ConnectionId connection);
    // Pops one queued command per v5 player, then steps the world once.
    void step();
    // One v1 snapshot shared by every v1 connection, and one Frame per v5 connection.
    void broadcast();
    // Where frames go out; until set, pushed on the loop thread.
    void set_fanout(net::FanOut& fanout) { fanout_ = &fanout; }

    const sim::arena::ArenaWorld& world() const { return world_; }
    std::size_t players() const { return players_.size(); }

private:
    struct Player {
        net::ConnectionRef connection;
        std::uint32_t player_id = 0;
        std::uint16_t slot = 0;
        bool v5 = false;
        InputFifo inputs;            // v5: one command per step
        std::uint32_t ack_seq = 0;   // v5: the last command applied
        std::uint8_t mask = 0;       // v5: the mask of that command
        std::shared_ptr<sim::arena::v5::DeltaEncoder> encoder;  // v5: touched only by its network thread
    };
    // What a network thread needs to encode one v5 connection's Frame.
    struct V5Target {
        std::shared_ptr<net::Outbox> outbox;
        std::uint16_t slot = 0;
        std::shared_ptr<sim::arena::v5::DeltaEncoder> encoder;
    };
    using V5Shard = std::vector<V5Target>;

    std::uint32_t apply(const sim::arena::ArenaCommand& command);
    // Room for one more avatar of either version; v1 also needs room in its snapshot.
    bool has_room() const;
    bool admit(const net::ConnectionRef& connection, bool v1);
    std::uint16_t take_slot();
    void add_player(Player player);
    void broadcast_v5();
    void rebuild_v5_shards();

    sim::arena::ArenaWorld world_;
    ArenaMetrics& metrics_;
    ReplayRecorder* recorder_;
    const std::size_t max_players_;
    net::NoTransportMetrics no_transport_metrics_;  // the direct fan-out has no network threads to count for
    net::DirectFanOut direct_fanout_{no_transport_metrics_};
    net::FanOut* fanout_ = &direct_fanout_;
    net::BroadcastGroup audience_;  // the v1 connections
    std::vector<Player> players_;
    std::unordered_map<net::ConnectionId, std::size_t> index_;    // connection → position in players_
    std::unordered_map<std::uint32_t, std::size_t> by_id_;   // player id → position in players_
    std::priority_queue<std::uint16_t, std::vector<std::uint16_t>, std::greater<>> free_slots_;  // lowest first
    std::uint16_t next_slot_ = 0;
    std::size_t v5_players_ = 0;
    std::vector<std::shared_ptr<const V5Shard>> v5_shards_;
    bool v5_changed_ = false;
    net::Frame static_world_;  // v5 StaticWorld: the obstacles never change
    std::vector<sim::arena::ArenaCommand> applied_this_tick_;
    std::chrono::steady_clock::duration simulating_{};  // this wake-up's steps so far
    protocol::v1::Snapshot scratch_;
    std::vector<sim::arena::v5::PlayerInput> v5_inputs_;
    std::shared_ptr<const sim::arena::v5::TickArtifacts> previous_v5_artifacts_;  // the deltas of the next are against it
};

}  // namespace hschool::server
