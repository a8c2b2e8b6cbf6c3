#pragma once
// The league table (issue 33): per entrant its rating (a model of the score margin, rating.hpp) with
// a 95 % interval, its wins, draws and losses, and value over replacement; per pairing its record and mean margin; one row per match played. A pure function of
// the entrants and the results, whatever order they finished in (table_json.hpp writes it).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "league/entrant.hpp"
#include "league/intervals.hpp"
#include "league/rating.hpp"
#include "league/schedule.hpp"

namespace hschool::league {

// Ratings are on a points scale of the margin model (rating.hpp): 1500 + 500·δ, the entrants' mean
// at 1500, so 100 points between two entrants is an expected margin of 0.2 in their matches.
inline constexpr double kRatingAnchor = 1500;
inline constexpr double kRatingPerMargin = 500;
// The prior: each δ ~ Normal(0, 1) (a margin lies in [-2, 2]: weak beside a dozen matches); the
// residual sd's prior is 0.5, weighing as much as two matches.
inline constexpr double kPriorSigmaMargin = 1;
inline constexpr double kNoisePriorScale = 0.5;
inline constexpr double kNoisePriorWeight = 2;
// An entrant's interval narrower than this (high - low, rating points) is settled; wider is provisional.
inline constexpr double kProvisionalWidth = 200;
// A margin (one entrant's trio score minus the other's) lies in [-2, 2].
inline constexpr double kMaxMargin = 2;
inline constexpr const char* kMethodName = "gaussian-margin-map";
inline constexpr const char* kIntervalName = "gaussian-posterior";

Prior league_prior();

struct MatchResult {
    std::string id;
    std::int64_t seed = 0;
    std::string variant;
    std::string gameVersion;                // the rules it was played by ("1", "2")
    std::array<std::string, kSeats> seats;  // entrant name by slot
    std::array<double, kSeats> scores{};     // by slot
    std::string replay;                      // file name beside league.json
    std::array<std::string, kSeats> programs;  // how a cmd: seat's program ended; empty for others
};

struct Vor {
    std::string baseline;  // the best-rated baseline entrant
    double value = 0, low = 0, high = 0;
};

struct EntrantRow {
    std::string name, kind;
    double rating = kRatingAnchor, low = kRatingAnchor, high = kRatingAnchor;
    int matches = 0, wins = 0, draws = 0, losses = 0;
    std::optional<double> meanScore;  // none before its first match
    bool provisional = true;
    std::optional<Vor> vor;  // none when no baseline entered
};

struct PairRow {
    std::string a, b;
    int matches = 0, aWins = 0, bWins = 0, draws = 0;
    std::optional<double> meanMargin;  // a's trio score minus b's, averaged; none before a match
    Interval margin{-kMaxMargin, kMaxMargin};
};

enum class LeagueState { Running, Finished, Stopped };

struct LeagueInfo {
    std::string variant;
    std::string gameVersion;  // every match of a league plays by one version
    std::int64_t seed = 0;
    int matchesPerPairing = 0;
    int planned = 0;
    LeagueState state = LeagueState::Running;
};

struct LeagueTable {
    LeagueInfo info;
    int played = 0;
    double noiseSigma = 0;  // the fitted residual sd of a margin
    // Every pairing whose margin interval excludes 0 has its entrants rated in that order; false
    // only when such pairings form a cycle, which no ratings can respect.
    bool clearPairsRespected = true;
    std::vector<EntrantRow> entrants;
    std::vector<PairRow> pairs;  // every unordered pair of entrants, in entrant order
    std::vector<MatchResult> results;  // by id
};

// Fails when a result's seats name an unknown entrant, its scores break the trio rules, or it was
// played by another game version than the league's (two versions' matches are never rated together).
Result<LeagueTable> build_table(const std::vector<Entrant>& entrants, std::vector<MatchResult> results,
                                const LeagueInfo& info);

}  // namespace hschool::league
