#pragma once
// Who may open /player, /global and /admin (spec §2.2, §2.1): the pre-upgrade decision only.
// Slot-sequential seating after the upgrade belongs to the match loop.
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "server/hns/contract/query.hpp"
#include "sim/hns/config.hpp"

namespace hschool::server::hns {

// A 403/409 answer given before the upgrade; body ends with "\n" as the reference's does.
struct Rejection {
    int status = 403;
    std::string body;
    int retry_after_seconds = 0;  // 429/503: when to try again
};

inline constexpr const char* kViewerCredentialsText = "Viewer websocket cannot include player name, slot, or token.\n";
inline constexpr const char* kKickedText = "player was kicked\n";
inline constexpr const char* kUncleanNameText = "Player name must be UTF-8 text without control or bidi characters.\n";
inline constexpr const char* kUncleanTokenText = "Player token must be UTF-8 text without control or bidi characters.\n";
inline constexpr const char* kNameConnectedText = "Player name is already connected.\n";

// The query of /player after the reference's cleaning.
struct PlayerRequest {
    std::string name;   // stripped, whitespace → '_'
    int slot = -1;      // -1 auto; 0..31; 32 for anything not a valid slot
    std::string token;  // stripped
};

// Empty → -1; not an integer, negative or above 31 → 32 (kMaxPlayers).
int parse_slot(std::string_view text);
PlayerRequest player_request(const QueryParams& query);

struct Roster {
    std::vector<sim::hns::SlotConfig> slots;  // configured names and tokens, by slot
    bool closed = false;                      // closedRoster
    std::vector<std::string> names_in_use;    // identities already connected (for Player<N>)
    std::vector<std::string> kicked;          // identities kicked by /control/kick
};
Roster roster_of(const sim::hns::GameConfig& config);

struct AdmittedPlayer {
    std::string identity;
    int slot = -1;
    std::string token;
};

// Identity: the name, else the slot's configured name when its token matches, else Player<N>.
std::string resolve_identity(const PlayerRequest& request, const Roster& roster);
// The reference's playerJoinAllowed.
bool join_allowed(const Roster& roster, const std::string& identity, int slot, const std::string& token);
// The reason text (without "\n") in the reference's check order; "" when the join passes.
// A refused join always has a reason (the reference has none for an open-roster slot past the
// configured ones with an unconfigured token: we give the generic one).
std::string join_error(const Roster& roster, const std::string& identity, int slot, const std::string& token);

std::variant<AdmittedPlayer, Rejection> admit_player(const PlayerRequest& request, const Roster& roster);

// Who holds a seat, or asks for one: an open player socket (pending or seated) or a seat of the sim.
struct SeatClaim {
    std::string identity;
    int slot = -1;      // the requested slot (sockets; -1: any) or the seat's index (seats)
    std::string token;
    int socket = 0;     // the socket; 0 for a seat whose socket has closed
    bool operator==(const SeatClaim&) const = default;
};

// Seats are private: a second socket for an identity or a slot someone holds is refused before the
// upgrade (409), unless the match has tokens and it presents the holder's (then it replaces the
// older socket: a re-dial after a blip must get its seat back). A seat whose socket closed goes
// back to the same identity only.
struct SeatAdmission {
    std::optional<Rejection> refused;
    int replaces = 0;  // the socket the newcomer takes over from
};
SeatAdmission admit_to_seat(const AdmittedPlayer& player, const std::vector<SeatClaim>& sockets,
                            const std::vector<SeatClaim>& seats, bool match_has_tokens);
bool roster_has_tokens(const Roster& roster);
// /global, /admin (and live /replay): 403 when any of name, slot, token is non-empty.
std::variant<std::monostate, Rejection> admit_viewer(const QueryParams& query);

// Which stream a viewer socket (/global, /admin, /replay) asked for (issue 31): the contract's
// Sprite v1 unless `stream=compact`, our browser's compact stream; any other value is 400.
enum class ViewerStream { Sprite, Compact };
inline constexpr const char* kStreamParam = "stream";
inline constexpr const char* kUnknownStreamText = "unknown stream\n";
std::variant<ViewerStream, Rejection> viewer_stream(const QueryParams& query);

}  // namespace hschool::server::hns
