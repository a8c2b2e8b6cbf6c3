#pragma once
// Who is connected to a live match and who sits where, on the match thread: its sockets (players,
// spectators, reward readers) and its six seats. Seating is slot-sequential in the lobby, with the
// server's bots in the highest seats and the lobby timeout's dead seats (§2.9); a registration picks
// a seat's policy (§2.3); a re-dial takes a seat back; a kick closes a player's sockets; a restart
// keeps every person's seat for them.
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "net/ws_connection.hpp"
#include "render/hns/stream.hpp"
#include "server/hns/contract/admission.hpp"
#include "server/hns/contract/hns_metrics.hpp"
#include "server/hns/contract/limits.hpp"
#include "server/hns/contract/pacing.hpp"
#include "server/hns/contract/registration.hpp"
#include "server/hns/live/match_event.hpp"
#include "server/hns/live/match_game.hpp"

namespace hschool::server::hns {

// One socket of the match, as the match thread knows it.
struct MatchSocket {
    Endpoint endpoint = Endpoint::Player;
    std::shared_ptr<net::WsConnection> peer;  // null until the upgrade has finished
    bool controls = false;  // Global sockets: may change the speed (open mode, or the owner's token)
    bool compact = false;   // Global sockets: the compact stream (issue 31)
    render::hns::Stream stream;  // what this socket has been sent (its frames are diffs against it)
    bool manual_stream = false;  // `stream` draws the manual seat's scene (the room), not the contract's own cog
    // Player sockets:
    std::string identity;
    int requested_slot = -1;
    std::string token;
    int player_index = -1;  // seated: 0..5
    bool pending = true;    // waiting for slot-sequential admission (lobby only)
    bool ready = false;     // a lone 0x85 since the last frame (fast mode)
    std::uint8_t mask = 0;  // the last 0x84 (drives a manual seat)
    std::optional<Registration> held;  // sent before the socket was seated
};

// One seat (player index 0..5) of the sim.
struct MatchSeat {
    bool seated = false;
    bool bot = false;     // the setup's own burrow bots (kept across a restart)
    bool filled = false;  // seated by the lobby timeout (§2.9): a dead seat
    int socket = 0;       // the player socket that took it (0: none)
    std::string identity;
    std::string token;  // the token it joined with: a re-dial must bring the same one
    SeatRegistration registration;
    SeatPolicy policy;
};

class MatchSeats {
public:
    // The highest `bots` seats are the server's own burrow bots.
    MatchSeats(int bots, HnsMetrics& metrics);

    std::map<int, MatchSocket>& sockets() { return sockets_; }
    const std::map<int, MatchSocket>& sockets() const { return sockets_; }
    MatchSocket* socket(int id);
    const MatchSeat& seat(int slot) const { return seats_[static_cast<std::size_t>(slot)]; }
    // The seat's own socket's connection, while it has one.
    net::WsConnection* connection_of(int slot) const;

    // What the inbox says of sockets.
    void join(const MatchEvent& join, const sim::hns::Sim& sim);  // a player socket, before anything it sends
    void attach(MatchEvent& attach);                              // the upgrade has finished
    // A player's 0x81 text: a registration is held until its seat is seated, applied at once to a
    // seated one; true when it was one (anything else may be a decision reply).
    bool register_text(MatchGame& game, int socket, const std::string& text);
    void closed(MatchGame& game, int socket);  // a seat whose socket went plays burrow from then on
    void kick(const std::string& identity);

    // Lobby only: seats pending sockets and the server's bots slot-sequentially; after the lobby's
    // timeout, fills the missing seats with dead ones and tells `lobby_timed_out` the first missing slot.
    void admit_pending(MatchGame& game, const std::function<void(int slot, const std::string& message)>& lobby_timed_out);
    // After the game restarted: sockets wait to be seated again (with their registrations), seats
    // are empty but kept for whoever held them, bots stay.
    void restart();

    // The seats as SeatClaims (identity, index, token, socket) for the pre-upgrade seat check.
    std::vector<SeatClaim> claims() const;
    // Pacing: the player sockets and whether each has sent a lone 0x85 since the last frame.
    std::vector<PaceSocket> pace_sockets() const;
    void clear_ready();
    // A manual seat's socket drives its cog with its own 0x84 mask.
    bool manual(int slot) const { return seat(slot).policy.kind == PolicyKind::Manual; }
    std::uint8_t manual_mask(int slot) const;
    // The seats still seated (for the metrics of a match that ends).
    void forget_kinds() const;

private:
    void refresh_names(sim::hns::Sim& sim) const;
    void set_policy(sim::hns::Sim& sim, int index, SeatPolicy policy);
    void apply_registration(MatchGame& game, int index, Registration registration);
    void seat_player(MatchGame& game, int index, MatchSocket* socket, int socket_id, const std::string& identity, int slot,
                     const std::string& token);
    void reclaim(const sim::hns::Sim& sim, int socket_id, int replaces);

    struct Reservation {
        std::string identity, token;
    };

    HnsMetrics& metrics_;
    std::map<int, MatchSocket> sockets_;  // by socket id, in connection order
    std::array<MatchSeat, kSeats> seats_{};
    // After a restart, seat i goes back to the identity (and token) that held it only; an empty
    // identity: to whoever comes in slot order.
    std::array<Reservation, kSeats> reserved_{};
};

}  // namespace hschool::server::hns
