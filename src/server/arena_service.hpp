#pragma once
// The arena on the loop thread: v1 connections joined to the one shared ArenaWorld.
#include <chrono>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "protocol/v1.hpp"
#include "server/commands.hpp"
#include "server/fanout.hpp"
#include "sim/arena/arena_world.hpp"

namespace hschool::server {

class Metrics;
class ReplayRecorder;

class ArenaService {
public:
    ArenaService(const sim::arena::ArenaSettings& settings, Metrics& metrics, ReplayRecorder* recorder = nullptr);

    void join(const cmd::ArenaJoin& command);
    void input(const cmd::ArenaInput& command);
    void disconnect(ConnectionId connection);
    void step();
    // One snapshot frame, encoded once, shared by every joined connection.
    void broadcast();
    // Where snapshots go out; until set, pushed on the loop thread.
    void set_fanout(FanOut& fanout) { fanout_ = &fanout; }

    const sim::arena::ArenaWorld& world() const { return world_; }
    std::size_t players() const { return players_.size(); }

private:
    std::uint32_t apply(const sim::arena::ArenaCommand& command);

    sim::arena::ArenaWorld world_;
    Metrics& metrics_;
    ReplayRecorder* recorder_;
    DirectFanOut direct_fanout_{metrics_};
    FanOut* fanout_ = &direct_fanout_;
    BroadcastGroup audience_;
    struct Player {
        ConnectionRef connection;
        std::uint32_t player_id = 0;
    };
    std::vector<Player> players_;
    std::unordered_map<ConnectionId, std::size_t> index_;  // connection → position in players_
    std::vector<sim::arena::ArenaCommand> applied_this_tick_;
    std::chrono::steady_clock::duration simulating_{};  // this wake-up's steps so far
    protocol::v1::Snapshot scratch_;
};

}  // namespace hschool::server
