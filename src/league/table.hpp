#pragma once
// The league table (issue 33): per entrant its rating with a 95 % interval, record and value over
// replacement; per pairing its record and mean margin; one row per match played. A pure function of
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

// Ratings are Elo-scaled: 1500 + 400·log10(π) = 1500 + kEloPerNat·θ, the entrants' mean at 1500.
inline constexpr double kEloAnchor = 1500;
inline constexpr double kEloPerNat = 173.71779276130073;  // 400 / ln 10
// The prior: each log-strength ~ Normal(0, 400 Elo); ln ν ~ Normal(0, 2) (ν = 1: a third of even
// matches drawn, within a factor e² either way). Weak beside a dozen matches, decisive only for a sweep.
inline constexpr double kPriorSigmaElo = 400;
inline constexpr double kTiePriorMean = 0;
inline constexpr double kTiePriorSigma = 2;
inline constexpr int kResamples = 1000;
// An entrant's interval narrower than this (high - low, Elo) is settled; wider is provisional.
inline constexpr double kProvisionalWidthElo = 200;
// A margin (one entrant's trio score minus the other's) lies in [-2, 2].
inline constexpr double kMaxMargin = 2;
inline constexpr const char* kMethodName = "davidson-bradley-terry-map";
inline constexpr const char* kIntervalName = "parametric-bootstrap-percentile";

Prior league_prior();

struct MatchResult {
    std::string id;
    std::int64_t seed = 0;
    std::string variant;
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
    double rating = kEloAnchor, low = kEloAnchor, high = kEloAnchor;
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
    std::int64_t seed = 0;
    int matchesPerPairing = 0;
    int planned = 0;
    LeagueState state = LeagueState::Running;
    int resamples = kResamples;
};

struct LeagueTable {
    LeagueInfo info;
    int played = 0;
    double tieFactor = 1;  // the fitted ν
    std::vector<EntrantRow> entrants;
    std::vector<PairRow> pairs;  // every unordered pair of entrants, in entrant order
    std::vector<MatchResult> results;  // by id
};

// Fails when a result's seats name an unknown entrant or its scores break the trio rules.
Result<LeagueTable> build_table(const std::vector<Entrant>& entrants, std::vector<MatchResult> results,
                                const LeagueInfo& info);

}  // namespace hschool::league
