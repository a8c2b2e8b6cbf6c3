#include "server/hns/live/match_gate.hpp"

#include "server/hns/contract/limits.hpp"
#include "server/hns/live/socket_handler.hpp"
#include "server/hns/streams/budget.hpp"

namespace hschool::server::hns {

namespace {

constexpr const char* kMatchOverText = "match is over\n";

}  // namespace

MatchGate::MatchGate(const sim::hns::GameConfig& config, std::size_t max_viewers, std::size_t max_viewers_per_address,
                     HnsMetrics& metrics)
    : roster_(roster_of(config)),
      metrics_(metrics),
      viewer_limiter_(std::make_shared<net::ConnectionLimiter>(max_viewers, max_viewers_per_address)) {}

std::optional<Rejection> MatchGate::check_player(const QueryParams& query) const {
    std::lock_guard lock(mutex_);
    if (shut_) return Rejection{409, kMatchOverText};
    Roster roster = roster_;
    roster.kicked.assign(kicked_.begin(), kicked_.end());
    auto admitted = admit_player(player_request(query), roster);
    if (auto* r = std::get_if<Rejection>(&admitted)) return *r;
    return std::nullopt;
}

std::variant<Rejection, MatchGate::Admitted> MatchGate::admit(Endpoint endpoint, const QueryParams& query, bool controls,
                                                              const std::string& address, const std::weak_ptr<MatchInbox>& inbox) {
    std::lock_guard lock(mutex_);
    if (shut_) return Rejection{409, kMatchOverText};
    if (endpoint != Endpoint::Player) {
        bool compact = false;
        if (endpoint == Endpoint::Global) {
            if (auto refused = admit_viewer(query); auto* r = std::get_if<Rejection>(&refused)) return *r;
            const auto stream = viewer_stream(query);
            if (auto* r = std::get_if<Rejection>(&stream)) return *r;
            compact = std::get<ViewerStream>(stream) == ViewerStream::Compact;
        }
        net::ConnectionLimiter::Slot slot;
        static constexpr BudgetAnswers kViewers{"viewers_per_match", "this match has as many viewers as it can take\n",
                                                "viewers_per_address", "too many viewers of this match from this address\n",
                                                kViewerRetryAfterSeconds};
        if (auto refused = refusal_of(viewer_limiter_->try_admit(address, slot), kViewers, metrics_)) return *refused;
        auto handler = std::make_shared<SocketHandler>(inbox, next_socket_++, endpoint, controls, compact);
        handler->hold(viewer_limiter_, std::move(slot));
        return Admitted{std::move(handler), std::nullopt};
    }
    Roster roster = roster_;
    for (const auto& [id, claim] : claims_) roster.names_in_use.push_back(claim.identity);
    roster.names_in_use.insert(roster.names_in_use.end(), kicked_.begin(), kicked_.end());
    roster.kicked.assign(kicked_.begin(), kicked_.end());
    auto admitted = admit_player(player_request(query), roster);
    if (auto* r = std::get_if<Rejection>(&admitted)) return *r;
    auto& player = std::get<AdmittedPlayer>(admitted);
    std::vector<SeatClaim> sockets;
    for (const auto& [id, claim] : claims_) sockets.push_back(claim);
    const SeatAdmission seat = admit_to_seat(player, sockets, seats_, roster_has_tokens(roster));
    if (seat.refused) return *seat.refused;
    const int socket = next_socket_++;
    if (seat.replaces) claims_.erase(seat.replaces);
    claims_[socket] = SeatClaim{player.identity, player.slot, player.token, socket};
    MatchEvent join = make_event(MatchEvent::Kind::Join);
    join.socket = socket;
    join.text = player.identity;
    join.token = player.token;
    join.slot = player.slot;
    join.replaces = seat.replaces;
    return Admitted{std::make_shared<SocketHandler>(inbox, socket, endpoint, true), std::move(join)};
}

std::pair<ControlDecision, std::optional<MatchEvent>> MatchGate::control(ControlRoute route, std::string_view method,
                                                                         const QueryParams& query) {
    ControlDecision decision = decide_control(route, method, query, ControlState{});
    if (!decision.queue_restart && decision.kick_identity.empty()) return {decision, std::nullopt};
    const auto refuse = [&](const char* text, const char* reason, int retry_after) {
        metrics_.refused(reason);
        ControlDecision refused;
        refused.status = 429;
        refused.body = text;
        refused.retry_after_seconds = retry_after;
        return std::pair<ControlDecision, std::optional<MatchEvent>>{refused, std::nullopt};
    };
    std::lock_guard lock(mutex_);
    if (decision.queue_restart) {
        if (restart_pending_) return {decision, std::nullopt};  // a restart pending is a restart pending
        const auto now = std::chrono::steady_clock::now();
        if (last_restart_ != std::chrono::steady_clock::time_point{} && now - last_restart_ < std::chrono::milliseconds(kMinRestartIntervalMs))
            return refuse(kRestartTooSoonText, "restart_interval", 1);
        restart_pending_ = true;
        last_restart_ = now;
        return {decision, make_event(MatchEvent::Kind::Restart)};
    }
    if (kicked_.count(decision.kick_identity)) return {decision, std::nullopt};  // kicked already: nothing new to do
    if (kicked_.size() >= kMaxKicksPerMatch) return refuse(kKickListFullText, "kick_list", 60);
    kicked_.insert(decision.kick_identity);
    MatchEvent kick = make_event(MatchEvent::Kind::Kick);
    kick.text = decision.kick_identity;
    return {decision, std::move(kick)};
}

void MatchGate::closed(int socket) {
    std::lock_guard lock(mutex_);
    claims_.erase(socket);
}

void MatchGate::publish(std::vector<SeatClaim> seats) {
    std::lock_guard lock(mutex_);
    seats_ = std::move(seats);
}

void MatchGate::restart_taken() {
    std::lock_guard lock(mutex_);
    restart_pending_ = false;
}

void MatchGate::shut() {
    std::lock_guard lock(mutex_);
    shut_ = true;
}

}  // namespace hschool::server::hns
