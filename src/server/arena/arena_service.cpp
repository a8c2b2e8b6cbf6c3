#include "server/arena/arena_service.hpp"
#include "server/arena/arena_session.hpp"

#include <utility>

#include "protocol/v5.hpp"
#include "server/arena/replay_recorder.hpp"
#include "sim/arena/colours.hpp"
#include "sim/arena/v5/interest.hpp"
#include "util/log.hpp"

namespace hschool::server {
namespace {

namespace v1 = protocol::v1;
namespace p5 = protocol::v5;
namespace av5 = sim::arena::v5;

// The obstacles in id order, exact: the predictor resolves collisions in this order.
net::Frame make_static_world(const sim::arena::ArenaWorld& world) {
    v1::Snapshot snapshot;
    world.capture_snapshot(snapshot);
    p5::StaticWorld message{0, sim::arena::kObstacleColour, {}};
    for (const auto& e : snapshot.entities) {
        if (e.kind != v1::kind::kObstacle) continue;
        if (message.obstacles.empty()) message.first_id = e.id;
        message.obstacles.push_back({e.x, e.y, e.radius});
    }
    return net::make_frame(p5::encode(message));
}

}  // namespace

ArenaService::ArenaService(const sim::arena::ArenaSettings& settings, ArenaMetrics& metrics, ReplayRecorder* recorder,
                           std::size_t max_players)
    : world_(settings),
      metrics_(metrics),
      recorder_(recorder),
      max_players_(std::min(max_players, sim::arena::kMaxPlayers)),
      static_world_(make_static_world(world_)) {}

std::uint32_t ArenaService::apply(const sim::arena::ArenaCommand& command) {
    if (recorder_) applied_this_tick_.push_back(command);
    return world_.apply(command);
}

bool ArenaService::has_room() const { return world_.can_join() && players_.size() < max_players_; }

bool ArenaService::admit(const net::ConnectionRef& connection, bool v1) {
    if (index_.contains(connection.id)) return false;
    // v1: a snapshot with one more avatar would not fit the 64 KiB frame its clients accept.
    if (has_room() && (!v1 || world_.entity_count() + 1 <= v1::kMaxEntitiesPerFrame)) return true;
    connection.outbox->request_close({static_cast<std::uint16_t>(protocol::CloseCode::TryAgainLater), protocol::kArenaFullReason, std::nullopt});
    return false;
}

std::uint16_t ArenaService::take_slot() {
    if (free_slots_.empty()) return next_slot_++;
    const std::uint16_t slot = free_slots_.top();
    free_slots_.pop();
    return slot;
}

void ArenaService::add_player(Player player) {
    index_.emplace(player.connection.id, players_.size());
    by_id_.emplace(player.player_id, players_.size());
    logging::info("event=arena_join connection={} player={} version={} players={}", player.connection.id, player.player_id,
                 player.v5 ? 5 : 1, players_.size() + 1);
    players_.push_back(std::move(player));
}

void ArenaService::join(const cmd::ArenaJoin& command) {
    if (!admit(command.connection, true)) return;
    const std::uint32_t player_id = apply(sim::arena::JoinCommand{command.name});
    const auto& settings = world_.settings();
    command.connection.outbox->push_welcome(net::make_frame(
        v1::encode(v1::Welcome{v1::kVersion, player_id, settings.tick_rate, settings.width, settings.height})));
    audience_.add(command.connection);
    add_player({command.connection, player_id, take_slot(), false, {}, 0, 0, nullptr});
}

void ArenaService::join_v5(const cmd::ArenaJoinV5& command) {
    if (!admit(command.connection, false)) return;
    const std::uint32_t player_id = apply(sim::arena::JoinCommand{command.name});
    const std::uint16_t slot = take_slot();
    const auto& s = world_.settings();
    const auto grid = av5::grid_for(s);
    command.connection.outbox->push_welcome(net::make_frame(p5::encode(p5::Welcome{
        p5::kVersion, player_id, slot, s.tick_rate, s.width, s.height, s.player_speed, s.player_radius,
        static_cast<std::int8_t>(av5::quantum_exp_for(s)), av5::kCellSize, grid.cols, grid.rows, av5::kWindowCells,
        av5::kFarEvery})));
    command.connection.outbox->push_reliable(static_world_);
    add_player({command.connection, player_id, slot, true, {}, 0, 0, std::make_shared<av5::DeltaEncoder>()});
    ++v5_players_;
    v5_changed_ = true;
}

void ArenaService::input(const cmd::ArenaInput& command) {
    const auto found = index_.find(command.connection);
    if (found == index_.end()) return;
    Player& player = players_[found->second];
    if (player.v5) {
        player.inputs.push(command.sequence, command.buttons);  // applied by the steps, one each
        return;
    }
    apply(sim::arena::InputCommand{player.player_id, command.sequence, command.buttons});
}

void ArenaService::disconnect(net::ConnectionId connection) {
    const auto found = index_.find(connection);
    if (found == index_.end()) return;
    const std::size_t at = found->second;
    Player& gone = players_[at];
    apply(sim::arena::LeaveCommand{gone.player_id});
    logging::info("event=arena_leave connection={} player={}", connection, gone.player_id);
    index_.erase(found);
    by_id_.erase(gone.player_id);
    free_slots_.push(gone.slot);
    if (gone.v5) {
        --v5_players_;
        v5_changed_ = true;
    } else {
        audience_.remove(connection);
    }
    if (at + 1 != players_.size()) {
        gone = std::move(players_.back());
        index_[gone.connection.id] = at;
        by_id_[gone.player_id] = at;
    }
    players_.pop_back();
}

void ArenaService::step() {
    const auto started = std::chrono::steady_clock::now();
    for (Player& player : players_) {
        if (!player.v5) continue;
        if (const auto command = player.inputs.pop()) {
            apply(sim::arena::InputCommand{player.player_id, command->seq, command->mask});
            player.ack_seq = command->seq;
            player.mask = command->mask & v1::buttons::kKnown;
        }
    }
    world_.step();
    simulating_ += std::chrono::steady_clock::now() - started;
    if (recorder_) {
        recorder_->record(world_.tick(), applied_this_tick_, world_.state_hash());
        applied_this_tick_.clear();
    }
}

void ArenaService::rebuild_v5_shards() {
    std::vector<V5Shard> lists;
    for (const Player& player : players_) {
        if (!player.v5) continue;
        if (player.connection.shard >= lists.size()) lists.resize(player.connection.shard + 1);
        lists[player.connection.shard].push_back({player.connection.outbox, player.slot, player.encoder});
    }
    v5_shards_.assign(lists.size(), nullptr);
    for (std::size_t shard = 0; shard < lists.size(); ++shard)
        if (!lists[shard].empty()) v5_shards_[shard] = std::make_shared<const V5Shard>(std::move(lists[shard]));
    v5_changed_ = false;
}

// O(N) here; each connection's O(window) encode runs on the thread that writes it.
void ArenaService::broadcast_v5() {
    v5_inputs_.clear();
    for (const auto& e : scratch_.entities) {
        if (e.kind != v1::kind::kPlayer) continue;
        const Player& p = players_[by_id_.at(e.id)];
        v5_inputs_.push_back({p.slot, e.id, e.x, e.y, e.colour, p.ack_seq, static_cast<std::uint8_t>(p.inputs.size()), p.mask});
    }
    auto artifacts = std::make_shared<const av5::TickArtifacts>(
        av5::build_artifacts(world_.tick(), world_.settings(), v5_inputs_, previous_v5_artifacts_.get()));
    previous_v5_artifacts_ = artifacts;
    if (v5_changed_) rebuild_v5_shards();
    for (std::size_t shard = 0; shard < v5_shards_.size(); ++shard) {
        if (!v5_shards_[shard]) continue;
        fanout_->run(static_cast<std::uint32_t>(shard), [artifacts, targets = v5_shards_[shard], &metrics = metrics_] {
            std::size_t skipped = 0;
            for (const V5Target& target : *targets) {
                // Skip, and the next Frame coalesces (never drop a delta).
                if (skip_v5_frame(target.outbox->queued_deltas(), target.outbox->socket_full())) {
                    ++skipped;
                    target.encoder->skip(artifacts->tick);
                    continue;
                }
                target.outbox->push_delta(
                    net::framed_in_place([&](protocol::Bytes& out) { target.encoder->encode_next(artifacts, target.slot, out); }));
            }
            metrics.frames_dropped(arena::kV5Tag, skipped);
        });
    }
}

void ArenaService::broadcast() {
    const auto simulated = std::exchange(simulating_, {});
    if (players_.empty()) return;
    const auto started = std::chrono::steady_clock::now();
    world_.capture_snapshot(scratch_);
    if (v5_players_ > 0) broadcast_v5();
    net::Frame frame;
    if (!audience_.empty()) {
        // v5 avatars may outgrow a v1 snapshot: v1 sees the first entities by id, its own among them
        // (a v1 avatar joined while the world fitted, and later ids are higher).
        if (scratch_.entities.size() > v1::kMaxEntitiesPerFrame) scratch_.entities.resize(v1::kMaxEntitiesPerFrame);
        frame = net::make_frame(v1::encode(scratch_));
    }
    metrics_.arena_simulate(std::chrono::duration<double>(simulated + (std::chrono::steady_clock::now() - started)).count());
    if (frame) audience_.deliver(*fanout_, frame, arena::kV1Tag);
}

}  // namespace hschool::server
