#pragma once
// `hschool-hns seat`: a league seat in the box. Dials the game's /player URL (retrying while the
// game is not listening yet), runs a SeatSession on it, re-dials a dropped socket up to six times,
// and returns 0 once the match is over (1 when the game never accepted a connection). Besides the
// server's baselines it plays the league's other built-ins itself (idle: a manual seat that never
// presses; random: an external seat, wire_seats.hpp), prompt seats (the server asks the model) and
// numeric seats (issue 41: each decision's values and legal mask go to a policy service, whose
// chosen catalog order is sent; after a slow, failing or illegal answer the reply holds no order,
// and the server's fallback plays that turn). As the reference's player, it reads COWORLD_PLAYER_WS_URL (or
// COGAMES_ENGINE_WS_URL), PLAYER_NUMERIC_URL, PLAYER_NUMERIC_KEY and PLAYER_POLICY_LABEL where
// no flag says otherwise.
#include <cstdint>
#include <string>

#include "sim/hns/expected.hpp"

namespace hschool::tools::hns {

namespace sh = hschool::sim::hns;

inline constexpr int kSeatConnectAttempts = 240;   // x 500 ms: two minutes of dialling at the start
inline constexpr int kSeatReconnectAttempts = 6;   // re-dials after a live socket dies
inline constexpr int kSeatRetryMs = 500;

struct SeatOptions {
    std::string url;               // ws://host[:port]/player?slot=N&token=T
    std::string scripted = "burrow";
    std::string external_orders;   // "": scripted; "-": decisions on stdout, orders from stdin; else a JSON-lines file
    std::string label;
    std::string builtin;           // "": as above; idle | random: played by this program
    std::int64_t seed = 0;         // random's draws: the match seed
    std::string prompt_file;       // a prompt seat: the file's text is the registration's prompt
    std::string numeric_url;       // a numeric seat: the policy service's URL
    std::string numeric_key;       // sent as a bearer token, when set
    int connect_attempts = kSeatConnectAttempts;
};

// A prompt file's text, or why it cannot be a seat's prompt (unreadable, or too long for one
// registration); shared with `league`, which checks prompt: entrants before any match starts.
sh::Expected<std::string> read_prompt_file(const std::string& path);

int run_seat(const SeatOptions& options);

}  // namespace hschool::tools::hns
