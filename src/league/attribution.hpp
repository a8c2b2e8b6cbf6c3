#pragma once
// Whose score is whose (issue 33): a match's six scores credited to the entrants by the seats they
// held — never by join order, which is how the league runner's ladder misfiled results. A trio's
// seats ({0,2,4} or {1,3,5}) share one score and the two trios' scores sum to 0; an entrant wins,
// draws or loses by the sign of its trio's score.
#include <array>
#include <string>
#include <vector>

#include "league/entrant.hpp"
#include "league/schedule.hpp"

namespace hschool::league {

enum class Outcome { Win, Draw, Loss };

// A trio score this close to 0 is a draw (scores are whole permille, printed to 0.001).
inline constexpr double kDrawEpsilon = 0.0005;
// Seats of one trio, and the two trios' sum, may differ by this much before a result is refused.
inline constexpr double kScoreTolerance = 1e-6;

struct TrioResult {
    std::string entrant;
    double score = 0;
    Outcome outcome = Outcome::Draw;
};

struct Attribution {
    std::array<TrioResult, 2> trios;  // [0]: seats {0,2,4}, [1]: seats {1,3,5}
    // The same entrant held both trios: it played itself, which says nothing about its strength.
    bool mirror() const { return trios[0].entrant == trios[1].entrant; }
};

Outcome outcome_of(double trioScore);
// Fails when a trio's seats name two entrants, its seats' scores differ, or the trios do not sum to 0.
Result<Attribution> attribute(const std::array<std::string, kSeats>& seats, const std::array<double, kSeats>& scores);

}  // namespace hschool::league
