#include "league/attribution.hpp"

#include <cmath>

namespace hschool::league {

Outcome outcome_of(double trioScore) {
    if (trioScore > kDrawEpsilon) return Outcome::Win;
    if (trioScore < -kDrawEpsilon) return Outcome::Loss;
    return Outcome::Draw;
}

Result<Attribution> attribute(const std::array<std::string, kSeats>& seats, const std::array<double, kSeats>& scores) {
    const auto fail = [](std::string m) { return Result<Attribution>(hschool::unexpected(std::move(m))); };
    for (double v : scores)
        if (!std::isfinite(v)) return fail("a score is not a finite number");
    Attribution out;
    for (int trio = 0; trio < 2; ++trio) {
        for (int s = trio + 2; s < kSeats; s += 2) {
            if (seats[s] != seats[trio])
                return fail("slots " + std::to_string(trio + 1) + " and " + std::to_string(s + 1) + " of one trio hold " +
                            seats[trio] + " and " + seats[s]);
            if (std::abs(scores[s] - scores[trio]) > kScoreTolerance)
                return fail("slots " + std::to_string(trio + 1) + " and " + std::to_string(s + 1) +
                            " of one trio have different scores");
        }
        out.trios[trio] = {seats[trio], scores[trio], outcome_of(scores[trio])};
    }
    if (std::abs(scores[0] + scores[1]) > kScoreTolerance) return fail("the two trios' scores do not sum to 0");
    return out;
}

}  // namespace hschool::league
