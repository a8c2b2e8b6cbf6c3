#include "server/arena_service.hpp"

#include <spdlog/spdlog.h>

#include <utility>

#include "server/metrics.hpp"
#include "server/replay_recorder.hpp"

namespace hschool::server {

ArenaService::ArenaService(const sim::arena::ArenaSettings& settings, Metrics& metrics, ReplayRecorder* recorder)
    : world_(settings), metrics_(metrics), recorder_(recorder) {}

std::uint32_t ArenaService::apply(const sim::arena::ArenaCommand& command) {
    if (recorder_) applied_this_tick_.push_back(command);
    return world_.apply(command);
}

void ArenaService::join(const cmd::ArenaJoin& command) {
    if (index_.contains(command.connection.id)) return;
    if (!world_.can_join() || world_.entity_count() + 1 > protocol::v1::kMaxEntitiesPerFrame) {
        // A snapshot with one more avatar would not fit the 64 KiB frame clients accept.
        command.connection.outbox->request_close({protocol::CloseCode::TryAgainLater, "arena is full"});
        return;
    }
    const std::uint32_t player_id = apply(sim::arena::JoinCommand{command.name});
    const auto& settings = world_.settings();
    command.connection.outbox->push_welcome(make_frame(protocol::v1::encode(protocol::v1::Welcome{
        protocol::v1::kVersion, player_id, settings.tick_rate, settings.width, settings.height})));
    index_.emplace(command.connection.id, players_.size());
    audience_.add(command.connection);
    players_.push_back({command.connection, player_id});
    spdlog::info("event=arena_join connection={} player={} players={}", command.connection.id, player_id,
                 players_.size());
}

void ArenaService::input(const cmd::ArenaInput& command) {
    const auto found = index_.find(command.connection);
    if (found == index_.end()) return;
    apply(sim::arena::InputCommand{players_[found->second].player_id, command.sequence, command.buttons});
}

void ArenaService::disconnect(ConnectionId connection) {
    const auto found = index_.find(connection);
    if (found == index_.end()) return;
    const std::size_t at = found->second;
    apply(sim::arena::LeaveCommand{players_[at].player_id});
    spdlog::info("event=arena_leave connection={} player={}", connection, players_[at].player_id);
    index_.erase(found);
    audience_.remove(connection);
    if (at + 1 != players_.size()) {
        players_[at] = std::move(players_.back());
        index_[players_[at].connection.id] = at;
    }
    players_.pop_back();
}

void ArenaService::step() {
    const auto started = std::chrono::steady_clock::now();
    world_.step();
    simulating_ += std::chrono::steady_clock::now() - started;
    if (recorder_) {
        recorder_->record(world_.tick(), applied_this_tick_, world_.state_hash());
        applied_this_tick_.clear();
    }
}

void ArenaService::broadcast() {
    const auto simulated = std::exchange(simulating_, {});
    if (players_.empty()) return;
    const auto started = std::chrono::steady_clock::now();
    world_.capture_snapshot(scratch_);
    const Frame frame = make_frame(protocol::v1::encode(scratch_));
    metrics_.arena_simulate(std::chrono::duration<double>(simulated + (std::chrono::steady_clock::now() - started)).count());
    audience_.deliver(*fanout_, frame, WireVersion::Arena);
}

}  // namespace hschool::server
