#pragma once
// The league's schedule (issue 33): every unordered pair of distinct entrants plays N matches,
// interleaved round by round (pairing 1 match 1, pairing 2 match 1, …, pairing 1 match 2, …) so a
// league stopped early has played every pairing about as often.
//
// Entrant a holds seats {0,2,4} in its pairing's even rounds and b in the odd ones, so each plays
// both trios equally (with an odd N, a once more). Every match has a seed of its own: the match at
// play-order index k gets draw k+1 of splitmix64 started at the league seed, its top 31 bits (a
// non-negative int, the same on every machine). No two matches share a deal on purpose: the
// intervals treat matches as independent, and a rerun of the same seed swapping the trios is
// (nearly) the same match again — duplicate seeding would count one observation twice.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "league/entrant.hpp"

namespace hschool::league {

inline constexpr int kMaxMatchesPerPairing = 1000;
// Every match keeps a replay file (~30 KB for certification); this bounds a league's disk use.
inline constexpr int kMaxPlannedMatches = 20000;
inline constexpr int kSeats = 6;

struct Pairing {
    int a = 0, b = 0;  // entrant indices, a < b
};

struct ScheduledMatch {
    int index = 0;    // position in play order, from 0
    std::string id;   // index + 1, zero-padded to the width of the planned count (at least 4)
    int pairing = 0;  // into Schedule::pairings
    int round = 0;    // this pairing's match number, from 0
    std::int64_t seed = 0;
    bool aOnFirstTrio = true;  // entrant a holds seats {0,2,4}
    std::array<std::string, kSeats> seats;  // entrant name in each slot
};

struct Schedule {
    std::vector<Pairing> pairings;
    std::vector<ScheduledMatch> matches;
    int matchesPerPairing = 0;
};

Result<Schedule> make_schedule(const std::vector<Entrant>& entrants, long long matchesPerPairing, std::int64_t leagueSeed);

}  // namespace hschool::league
