#pragma once
// What leaves a live match each frame, on the match thread: every player's own frame (its seat's
// view, fogged for a manual seat), the spectators' shared diff (spectator_feed.hpp), the /reward
// lines; the bytes each seat was sent (the metrics file's); and the view the REST publishes.
#include <array>
#include <string>

#include "server/hns/contract/hns_metrics.hpp"
#include "server/hns/contract/limits.hpp"
#include "server/hns/contract/match_view.hpp"
#include "server/hns/contract/metrics_file.hpp"
#include "server/hns/live/match_seats.hpp"
#include "server/hns/streams/spectator_feed.hpp"
#include "sim/hns/sim.hpp"

namespace hschool::server::hns {

class MatchStreams {
public:
    // This frame for every socket.
    void send(const sim::hns::Sim& sim, MatchSeats& seats, HnsMetrics& metrics);
    // A seat's frames wait for a network thread that has not written them (net::WsConnection::
    // writer_behind): the next frame should wait too; the seat's connection calls back when it is written.
    static bool network_behind(MatchSeats& seats);
    // Bytes sent to each seat's /player socket so far.
    const std::array<SeatTraffic, kSeats>& traffic() const { return traffic_; }

private:
    SpectatorFeed spectators_;              // the Global sockets' shared frames
    std::array<SeatTraffic, kSeats> traffic_{};
};

// The match as the REST shows it: its phase, tick, spectators and seats.
MatchView match_view_of(const sim::hns::Sim& sim, const MatchSeats& seats, const std::string& id, const std::string& variant,
                        bool is_default);

}  // namespace hschool::server::hns
