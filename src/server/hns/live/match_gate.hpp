#pragma once
// A live match's door, on whichever thread asks (a network thread before an upgrade, an HTTP
// handler): who may open a socket on it (the roster, the seats and sockets held, kicks, the viewer
// budget), /client/player's check, and the controls' pacing (a restart at most every second, a
// bounded kick list). It queues nothing itself: the match posts what it answers.
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "net/connection_limiter.hpp"
#include "net/ws_connection.hpp"
#include "server/hns/contract/admission.hpp"
#include "server/hns/contract/control.hpp"
#include "server/hns/contract/hns_metrics.hpp"
#include "server/hns/contract/query.hpp"
#include "server/hns/live/match_event.hpp"

namespace hschool::server::hns {

class MatchGate {
public:
    MatchGate(const sim::hns::GameConfig& config, std::size_t max_viewers, std::size_t max_viewers_per_address, HnsMetrics& metrics);

    struct Admitted {
        std::shared_ptr<net::WsHandler> handler;
        std::optional<MatchEvent> join;  // a player's: to be posted before anything its socket sends
    };
    // Before the upgrade: a 403/409/429/503 answer, or the handler the upgraded socket talks to.
    // controls: a /global socket whose speed keys count.
    std::variant<Rejection, Admitted> admit(Endpoint endpoint, const QueryParams& query, bool controls, const std::string& address,
                                            const std::weak_ptr<MatchInbox>& inbox);
    // The 403/409 the /player upgrade would answer, without taking (or asking for) a seat.
    std::optional<Rejection> check_player(const QueryParams& query) const;
    // The answer to a restart or a kick, and the event to post when one is queued (429 when too
    // soon or too many kicks; a restart already pending, or a kick already made, queues nothing).
    std::pair<ControlDecision, std::optional<MatchEvent>> control(ControlRoute route, std::string_view method, const QueryParams& query);

    void closed(int socket);                   // a player socket ended: its claim goes
    void publish(std::vector<SeatClaim> seats);  // the match thread's seats, for the next admission's check
    void restart_taken();                      // the match thread took the queued restart: another may queue
    void shut();                               // the match ended or is stopping: every admission is 409

private:
    const Roster roster_;  // the config's slots and closedRoster
    HnsMetrics& metrics_;

    mutable std::mutex mutex_;  // guards everything below
    std::set<std::string> kicked_;  // at most kMaxKicksPerMatch
    std::shared_ptr<net::ConnectionLimiter> viewer_limiter_;  // spectators and reward readers; their handlers share it
    bool restart_pending_ = false;  // a restart is queued: another one coalesces into it
    std::chrono::steady_clock::time_point last_restart_{};
    std::map<int, SeatClaim> claims_;  // player sockets not yet closed → who they are and ask for
    std::vector<SeatClaim> seats_;     // the match thread's seats as last published
    int next_socket_ = 1;
    bool shut_ = false;
};

}  // namespace hschool::server::hns
