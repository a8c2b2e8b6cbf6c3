#include "server/hns/live/match_streams.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "render/hns/manual_scene.hpp"
#include "render/hns/scene.hpp"
#include "server/hns/contract/rewards.hpp"

namespace hschool::server::hns {

namespace sh = sim::hns;

namespace {

protocol::ByteView bytes_of(const std::string& text) {
    return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

std::size_t send_frame(MatchSocket& socket, const render::hns::Scene& scene, SeatTraffic* traffic) {
    const auto frame = socket.stream.next(scene);
    std::size_t bytes = 0;
    for (const auto& message : frame.ws_messages()) {
        bytes += message.size();
        if (traffic) count_sprite_traffic(message, *traffic);
        if (!socket.peer->send(message, false)) break;
    }
    return bytes;
}

// Side of `slot` in game `game` (0-based): Red hides, and the sides swap each game (§3.2).
bool hides_in(int slot, int game) { return (slot + game) % 2 == 0; }

// A seat's reward: its side's margins (permille, §3.13) summed over the filed games and the one
// being played. The reference's number is the platform's; ours says how the seat is doing.
std::int64_t reward_of(const sh::Sim& sim, int slot) {
    std::int64_t total = 0;
    const auto& margins = sim.game_margins();
    for (std::size_t g = 0; g < margins.size(); ++g) total += hides_in(slot, static_cast<int>(g)) ? margins[g] : -margins[g];
    if (sim.phase() == sh::GamePhase::Playing) {
        const int m = sim.current_margin();
        total += hides_in(slot, sim.game_index()) ? m : -m;
    }
    return total;
}

std::string reward_lines(const sh::Sim& sim) {
    std::vector<RewardRow> rows;
    const auto& players = sim.players();
    for (std::size_t s = 0; s < players.size(); ++s) {
        const auto& p = players[s];
        rows.push_back(RewardRow{p.address, reward_of(sim, static_cast<int>(s)), p.seatSeenTicks, p.sealedTicks, p.locks, p.grabs, p.vaults});
    }
    return reward_text(rows);
}

}  // namespace

bool MatchStreams::network_behind(MatchSeats& seats) {
    for (auto& [id, socket] : seats.sockets())
        if (socket.peer && socket.endpoint == Endpoint::Player && socket.peer->writer_behind(kMaxSeatMessagesUnwritten)) return true;
    return false;
}

void MatchStreams::send(const sh::Sim& sim, MatchSeats& seats, HnsMetrics& metrics) {
    std::vector<SpectatorFeed::Viewer> spectators;
    std::optional<std::string> rewards;
    std::size_t player_bytes = 0, global_bytes = 0, reward_bytes = 0;
    for (auto& [id, socket] : seats.sockets()) {
        if (!socket.peer) continue;
        switch (socket.endpoint) {
        case Endpoint::Player: {
            const int index = socket.player_index;
            const bool manual = index >= 0 && index < kSeats && seats.seat(index).socket == id && seats.manual(index);
            SeatTraffic* traffic = index >= 0 && index < kSeats ? &traffic_[static_cast<std::size_t>(index)] : nullptr;
            if (manual != socket.manual_stream) {
                socket.stream.restart();  // the other scene from its header: the map bands go in a first frame only
                socket.manual_stream = manual;
            }
            player_bytes += send_frame(socket, manual ? render::hns::manual_scene(sim, index) : render::hns::player_scene(sim, index), traffic);
            break;
        }
        case Endpoint::Global: spectators.push_back({id, socket.peer.get(), &socket.stream, socket.compact}); break;
        case Endpoint::Reward:
            if (!rewards) rewards = reward_lines(sim);
            reward_bytes += rewards->size();
            socket.peer->send(bytes_of(*rewards), true);
            break;
        }
    }
    // Every spectator in step shares one diff (spectator_feed.hpp).
    if (spectators.empty()) {
        spectators_.forget_all();
    } else {
        const SpectatorTick tick = spectators_.send(render::hns::global_scene(sim), spectators, static_cast<std::uint32_t>(sim.tick_count()));
        global_bytes = tick.bytes;
        metrics.spectator_encodes(tick.deltas, tick.keyframes);
        if (tick.resyncs) metrics.viewer_resyncs("global", tick.resyncs);
        if (tick.compact_resyncs) metrics.viewer_resyncs("global_compact", tick.compact_resyncs);
        if (tick.compact_bytes) metrics.frame_bytes("global_compact", tick.compact_bytes);
    }
    if (player_bytes) metrics.frame_bytes("player", player_bytes);
    if (global_bytes) metrics.frame_bytes("global", global_bytes);
    if (reward_bytes) metrics.frame_bytes("reward", reward_bytes);
}

MatchView match_view_of(const sh::Sim& sim, const MatchSeats& seats, const std::string& id, const std::string& variant, bool is_default) {
    MatchView v;
    v.id = id;
    v.variant = variant;
    v.is_default = is_default;
    v.phase = match_phase_text(sim.phase());
    v.match_phase = sim.match_phase() == sh::MatchPhase::Prep ? "prep" : "hunt";
    v.games = sim.config().maxGames;
    v.game = std::min(sim.game_index() + 1, v.games);
    v.tick = sim.tick_count();
    v.game_tick = sim.phase() == sh::GamePhase::Playing ? sim.game_tick() : 0;
    v.phase_ticks_left = sim.phase() == sh::GamePhase::Playing ? sim.phase_ticks_left() : 0;
    v.hidden_ticks = sim.hidden_ticks();
    v.seen_ticks = sim.seen_ticks();
    v.fast_mode = sim.config().fastMode;
    for (const auto& [socket_id, socket] : seats.sockets())
        if (socket.endpoint == Endpoint::Global && socket.peer) ++v.spectators;
    const int game = std::min(sim.game_index(), std::max(0, v.games - 1));
    for (int s = 0; s < kSeats; ++s) {
        const MatchSeat& seat = seats.seat(s);
        SeatView view;
        view.slot = s;
        view.side = hides_in(s, game) ? "hider" : "seeker";
        if (seat.seated) {
            view.identity = seat.identity;
            view.kind = seat_kind_text(seat.policy.kind);
            view.label = seat.policy.label;
            const auto it = seats.sockets().find(seat.socket);
            view.connected = seat.socket != 0 && it != seats.sockets().end() && it->second.peer;
        } else if (seat.bot) {
            view.kind = "scripted";
            view.label = "burrow";
        }
        v.seats.push_back(std::move(view));
    }
    return v;
}

}  // namespace hschool::server::hns
