#pragma once
// `hschool-hns seat`: a league seat in the box. Dials the game's /player URL (retrying while the
// game is not listening yet), runs a SeatSession on it, re-dials a dropped socket up to six times,
// and returns 0 once the match is over (1 when the game never accepted a connection).
#include <string>

namespace hschool::tools::hns {

inline constexpr int kSeatConnectAttempts = 240;   // x 500 ms: two minutes of dialling at the start
inline constexpr int kSeatReconnectAttempts = 6;   // re-dials after a live socket dies
inline constexpr int kSeatRetryMs = 500;

struct SeatOptions {
    std::string url;               // ws://host[:port]/player?slot=N&token=T
    std::string scripted = "burrow";
    std::string external_orders;   // "": scripted; "-": decisions on stdout, orders from stdin; else a JSON-lines file
    std::string label;
    int connect_attempts = kSeatConnectAttempts;
};

int run_seat(const SeatOptions& options);

}  // namespace hschool::tools::hns
