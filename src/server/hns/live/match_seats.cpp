#include "server/hns/live/match_seats.hpp"

#include <algorithm>

#include "server/hns/contract/rewards.hpp"
#include "sim/hns/records.hpp"

namespace hschool::server::hns {

namespace sh = sim::hns;

namespace {

constexpr const char* kBaselineNames[2] = {"burrow", "scatter"};

bool has_tokens(const sh::Sim& sim) {
    const auto& slots = sim.config().slots;
    return std::any_of(slots.begin(), slots.end(), [](const auto& s) { return !s.token.empty(); });
}

}  // namespace

MatchSeats::MatchSeats(int bots, HnsMetrics& metrics) : metrics_(metrics) {
    for (int s = kSeats - std::clamp(bots, 0, kSeats); s < kSeats; ++s) seats_[static_cast<std::size_t>(s)].bot = true;
}

MatchSocket* MatchSeats::socket(int id) {
    auto it = sockets_.find(id);
    return it == sockets_.end() ? nullptr : &it->second;
}

net::WsConnection* MatchSeats::connection_of(int slot) const {
    const auto it = sockets_.find(seat(slot).socket);
    return it == sockets_.end() ? nullptr : it->second.peer.get();
}

std::uint8_t MatchSeats::manual_mask(int slot) const {
    const auto it = sockets_.find(seat(slot).socket);
    return it != sockets_.end() ? it->second.mask : 0;
}

void MatchSeats::refresh_names(sh::Sim& sim) const {
    std::vector<std::string> names, kinds;
    for (std::size_t s = 0; s < sim.players().size() && s < seats_.size(); ++s) {
        names.push_back(seats_[s].identity);
        kinds.push_back(policy_kind_text(seats_[s].policy.kind));
    }
    sim.set_seat_names(std::move(names));
    sim.set_policy_kinds(std::move(kinds));
}

void MatchSeats::set_policy(sh::Sim& sim, int index, SeatPolicy policy) {
    MatchSeat& seat = seats_[static_cast<std::size_t>(index)];
    metrics_.seat_kind(seat.seated ? seat_kind_text(seat.policy.kind) : "", seat_kind_text(policy.kind));
    seat.policy = std::move(policy);
    seat.seated = true;
    refresh_names(sim);
}

void MatchSeats::apply_registration(MatchGame& game, int index, Registration registration) {
    MatchSeat& seat = seats_[static_cast<std::size_t>(index)];
    const bool record = seat.registration.apply(std::move(registration));
    set_policy(game.sim(), index, seat.registration.policy());
    if (record) {
        game.replay().chat(game.now_ms(), index,
                           sh::register_record(index, seat.policy.label, policy_kind_text(seat.policy.kind),
                                               kBaselineNames[static_cast<int>(seat.policy.baseline)]));
    }
}

void MatchSeats::seat_player(MatchGame& game, int index, MatchSocket* socket, int socket_id, const std::string& identity, int slot,
                             const std::string& token) {
    game.replay().join(game.now_ms(), index, identity, slot, token);
    MatchSeat& seat = seats_[static_cast<std::size_t>(index)];
    seat.identity = identity;
    seat.token = token;
    seat.socket = socket_id;
    if (socket) {
        socket->player_index = index;
        socket->pending = false;
    }
    set_policy(game.sim(), index, seat_policy(nullptr));
    if (socket && socket->held) {
        apply_registration(game, index, std::move(*socket->held));
        socket->held.reset();
    } else if (!socket) {
        game.replay().chat(game.now_ms(), index, sh::register_record(index, "burrow", "scripted", "burrow"));
    }
}

// A joining socket whose identity holds a seat takes it back: after its old socket closed (a
// re-dial), or from the old socket when the admission let it replace that one (same token).
void MatchSeats::reclaim(const sh::Sim& sim, int socket_id, int replaces) {
    MatchSocket& socket = sockets_.at(socket_id);
    if (replaces != 0) {
        if (auto old = sockets_.find(replaces); old != sockets_.end()) {
            old->second.player_index = -1;  // its frames stop being the seat's before its close lands
            old->second.pending = false;
            if (old->second.peer) old->second.peer->close(net::close_code::kPolicyViolation, "replaced by a newer connection for this seat");
        }
    }
    for (std::size_t i = 0; i < seats_.size(); ++i) {
        MatchSeat& seat = seats_[i];
        if (!seat.seated || seat.bot || seat.filled || seat.identity != socket.identity) continue;
        if (seat.socket != 0 && seat.socket != replaces) {
            // Another live socket holds it: the admission check lost a race; this one gets nothing.
            socket.pending = false;
            return;
        }
        if (has_tokens(sim) && seat.token != socket.token) return;
        seat.socket = socket_id;
        socket.player_index = static_cast<int>(i);
        socket.pending = false;
        return;
    }
}

void MatchSeats::join(const MatchEvent& e, const sh::Sim& sim) {
    MatchSocket& s = sockets_[e.socket];
    s.endpoint = Endpoint::Player;
    s.identity = e.text;
    s.requested_slot = e.slot;
    s.token = e.token;
    s.pending = sim.phase() == sh::GamePhase::Lobby;  // after the start: index −1, the header only
    reclaim(sim, e.socket, e.replaces);
}

void MatchSeats::attach(MatchEvent& e) {
    MatchSocket& s = sockets_[e.socket];
    s.endpoint = e.endpoint;
    s.controls = e.controls;
    s.compact = e.compact;
    s.peer = std::move(e.peer);
}

bool MatchSeats::register_text(MatchGame& game, int socket_id, const std::string& text) {
    MatchSocket* socket = this->socket(socket_id);
    if (!socket || socket->endpoint != Endpoint::Player || text.empty() || text.front() != '{') return false;
    // Held until the seat is seated; a seated one's applies at once. Anything else is other chat,
    // dropped in squad mode (§2.3).
    if (auto registration = parse_registration(text)) socket->held = std::move(*registration);
    if (socket->player_index >= 0 && registration_applies(socket->player_index) && socket->held) {
        apply_registration(game, socket->player_index, std::move(*socket->held));
        socket->held.reset();
    }
    return true;
}

void MatchSeats::closed(MatchGame& game, int socket_id) {
    MatchSocket* socket = this->socket(socket_id);
    if (!socket) return;
    if (socket->player_index >= 0) {
        const int index = socket->player_index;
        MatchSeat& seat = seats_[static_cast<std::size_t>(index)];
        if (seat.socket == socket_id) {
            // Played by burrow from then on, so it never holds a turn open.
            seat.socket = 0;
            if (seat.policy.kind != PolicyKind::Scripted) set_policy(game.sim(), index, seat_policy(nullptr));
        }
    }
    sockets_.erase(socket_id);
}

void MatchSeats::kick(const std::string& identity) {
    for (auto& [id, s] : sockets_) {
        if (s.endpoint == Endpoint::Player && s.peer && (s.identity == identity || reward_id(s.identity) == identity))
            s.peer->close(net::close_code::kPolicyViolation, "player was kicked");
    }
}

void MatchSeats::admit_pending(MatchGame& game, const std::function<void(int, const std::string&)>& lobby_timed_out) {
    sh::Sim& sim = game.sim();
    if (sim.phase() != sh::GamePhase::Lobby) {
        for (auto& [id, s] : sockets_) s.pending = false;
        return;
    }
    for (bool progress = true; progress;) {
        progress = false;
        const int n = static_cast<int>(sim.players().size());
        if (n >= kSeats) break;
        if (seats_[static_cast<std::size_t>(n)].bot) {
            const std::string name = "Cog" + std::to_string(n + 1);
            if (auto added = sim.add_player(name, n, "", true); added) {
                seat_player(game, *added, nullptr, 0, name, n, "");
                progress = true;
            }
            continue;
        }
        // Pending sockets in (resolved slot, identity) order; only slot n may sit down now.
        std::vector<std::pair<int, int>> order;  // (resolved slot, socket id)
        for (auto& [id, s] : sockets_) {
            if (s.endpoint != Endpoint::Player || !s.pending || !s.peer) continue;
            order.emplace_back(s.requested_slot >= 0 ? s.requested_slot : n, id);
        }
        std::sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
            if (a.first != b.first) return a.first < b.first;
            return sockets_.at(a.second).identity < sockets_.at(b.second).identity;
        });
        for (const auto& [slot, id] : order) {
            MatchSocket& s = sockets_.at(id);
            if (slot < n) {  // its slot was taken meanwhile
                s.pending = false;
                s.peer->close(net::close_code::kPolicyViolation, "Player slot is already occupied.");
                continue;
            }
            if (slot != n) continue;
            const auto& reserved = reserved_[static_cast<std::size_t>(n)];
            if (!reserved.identity.empty() && reserved.identity != s.identity) continue;  // seat n is kept for its holder
            auto added = sim.add_player(s.identity, s.requested_slot, s.token, false);
            if (!added) {
                s.pending = false;
                s.peer->close(net::close_code::kPolicyViolation, added.error.c_str());
                continue;
            }
            seat_player(game, *added, &s, id, s.identity, s.requested_slot, s.token);
            progress = true;
            break;
        }
    }
    // §2.9: the lobby waited long enough; the missing seats play burrow as dead seats.
    if (sim.lobby_join_timed_out()) {
        const int first = static_cast<int>(sim.players().size());
        if (first < kSeats) lobby_timed_out(first, "seat " + std::to_string(first) + " did not join before the lobby timeout");
        for (int s = first; s < kSeats; ++s) {
            const std::string alias = sim.alias(s);
            auto added = sim.add_player(alias, s, "", true);
            if (!added) break;
            seats_[static_cast<std::size_t>(s)].filled = true;
            seat_player(game, *added, nullptr, 0, alias, s, "");
            sim.set_dead_seat(s);
        }
    }
}

void MatchSeats::restart() {
    forget_kinds();
    for (auto& [id, socket] : sockets_) {
        if (socket.endpoint == Endpoint::Player && socket.player_index >= 0) {
            const MatchSeat& seat = seats_[static_cast<std::size_t>(socket.player_index)];
            if (seat.registration.current()) socket.held = *seat.registration.current();
        }
        socket.player_index = -1;
        socket.pending = socket.endpoint == Endpoint::Player;
        socket.stream.restart();  // the next frame starts with the header (0x04 clears)
    }
    for (std::size_t s = 0; s < seats_.size(); ++s) {
        // A restart never hands a person's seat to another identity.
        const MatchSeat& old = seats_[s];
        reserved_[s] = old.seated && !old.bot && !old.filled ? Reservation{old.identity, old.token} : Reservation{};
        const bool bot = old.bot;
        seats_[s] = MatchSeat{};
        seats_[s].bot = bot;
    }
}

void MatchSeats::forget_kinds() const {
    for (const auto& seat : seats_)
        if (seat.seated) metrics_.seat_kind(seat_kind_text(seat.policy.kind), "");
}

std::vector<SeatClaim> MatchSeats::claims() const {
    std::vector<SeatClaim> claims;
    for (std::size_t i = 0; i < seats_.size(); ++i) {
        const MatchSeat& seat = seats_[i];
        if (seat.seated) claims.push_back(SeatClaim{seat.identity, static_cast<int>(i), seat.token, seat.socket});
        else if (!reserved_[i].identity.empty())
            claims.push_back(SeatClaim{reserved_[i].identity, static_cast<int>(i), reserved_[i].token, 0});
    }
    return claims;
}

std::vector<PaceSocket> MatchSeats::pace_sockets() const {
    std::vector<PaceSocket> out;
    for (const auto& [id, s] : sockets_)
        if (s.endpoint == Endpoint::Player && s.peer) out.push_back(PaceSocket{s.player_index, s.ready});
    return out;
}

void MatchSeats::clear_ready() {
    for (auto& [id, s] : sockets_) s.ready = false;
}

}  // namespace hschool::server::hns
