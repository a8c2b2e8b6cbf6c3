#include "league/table.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "league/attribution.hpp"
#include "league/intervals.hpp"
#include "league/rating.hpp"

namespace hschool::league {
namespace {

struct PairAccumulator {
    int aWins = 0, bWins = 0, draws = 0;
    std::vector<double> margins;  // from a's side
};

// What the prior alone says about a rating no match has touched.

Interval containing(Interval i, double value) { return {std::min(i.low, value), std::max(i.high, value)}; }

Interval around(double centre, double variance) {
    const double half = kZ975 * kRatingPerMargin * std::sqrt(std::max(variance, 0.0));
    return {centre - half, centre + half};
}

bool id_before(const MatchResult& x, const MatchResult& y) {
    return x.id.size() != y.id.size() ? x.id.size() < y.id.size() : x.id < y.id;
}

}  // namespace

Prior league_prior() { return Prior{kPriorSigmaMargin, kNoisePriorScale, kNoisePriorWeight}; }

Result<LeagueTable> build_table(const std::vector<Entrant>& entrants, std::vector<MatchResult> results,
                                const LeagueInfo& info) {
    const auto fail = [](std::string m) { return Result<LeagueTable>(hschool::unexpected(std::move(m))); };
    const int n = static_cast<int>(entrants.size());
    std::map<std::string, int> index;
    for (int i = 0; i < n; ++i) index[entrants[i].name] = i;

    LeagueTable table;
    table.info = info;
    table.entrants.resize(n);
    std::vector<double> scoreSums(n, 0.0);
    std::map<std::pair<int, int>, PairAccumulator> pairs;
    std::vector<Game> games;
    std::stable_sort(results.begin(), results.end(), id_before);
    for (const MatchResult& r : results) {
        auto credit = attribute(r.seats, r.scores);
        if (!credit) return fail("match " + r.id + ": " + credit.error());
        int who[2];
        for (int t = 0; t < 2; ++t) {
            const auto it = index.find(credit->trios[t].entrant);
            if (it == index.end()) return fail("match " + r.id + ": no entrant named " + credit->trios[t].entrant);
            who[t] = it->second;
        }
        if (r.gameVersion != info.gameVersion)
            return fail("match " + r.id + ": played by game version " + r.gameVersion + ", the league by " +
                        info.gameVersion + " (two versions are never rated together)");
        if (credit->mirror()) continue;  // an entrant against itself moves nothing
        for (int t = 0; t < 2; ++t) {
            EntrantRow& row = table.entrants[who[t]];
            const TrioResult& trio = credit->trios[t];
            ++row.matches;
            scoreSums[who[t]] += trio.score;
            (trio.outcome == Outcome::Win ? row.wins : trio.outcome == Outcome::Draw ? row.draws : row.losses)++;
        }
        games.push_back({who[0], who[1], credit->trios[0].score - credit->trios[1].score});
        const int first = who[0] < who[1] ? 0 : 1;  // the trio of the pair's a (lower index)
        PairAccumulator& p = pairs[{who[first], who[1 - first]}];
        const Outcome forA = credit->trios[first].outcome;
        (forA == Outcome::Win ? p.aWins : forA == Outcome::Loss ? p.bWins : p.draws)++;
        p.margins.push_back(credit->trios[first].score - credit->trios[1 - first].score);
    }
    table.results = std::move(results);
    table.played = static_cast<int>(table.results.size());

    // The pairings first: their margin intervals say which pairs are clear.
    std::vector<ClearPair> clear;
    for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b) {
            PairRow row;
            row.a = entrants[a].name;
            row.b = entrants[b].name;
            if (const auto it = pairs.find({a, b}); it != pairs.end()) {
                const PairAccumulator& p = it->second;
                row.aWins = p.aWins;
                row.bWins = p.bWins;
                row.draws = p.draws;
                row.matches = static_cast<int>(p.margins.size());
                const MeanInterval m = mean_interval(p.margins, -kMaxMargin, kMaxMargin);
                row.meanMargin = m.mean;
                row.margin = m.interval;
                if (m.interval.low > 0) clear.push_back({a, b});
                else if (m.interval.high < 0) clear.push_back({b, a});
            }
            table.pairs.push_back(std::move(row));
        }
    Fit fit = fit_margins(n, games, league_prior());
    table.clearPairsRespected = respect_clear_pairs(fit.delta, clear);
    table.noiseSigma = fit.sigma;
    const auto rating = [](double delta) { return kRatingAnchor + kRatingPerMargin * delta; };
    for (int i = 0; i < n; ++i) {
        EntrantRow& row = table.entrants[i];
        row.name = entrants[i].name;
        row.kind = entrants[i].kind.text();
        row.rating = rating(fit.delta[i]);
        if (row.matches > 0) row.meanScore = scoreSums[i] / row.matches;
        // The rating is δ_i minus the entrants' mean: its weights are e_i - 1/n.
        std::vector<double> w(n, -1.0 / n);
        w[i] += 1;
        const Interval iv = containing(around(row.rating, posterior_variance(fit, w)), row.rating);
        row.low = iv.low;
        row.high = iv.high;
        row.provisional = row.matches == 0 || !(row.high - row.low < kProvisionalWidth);
    }

    int best = -1;
    for (int i = 0; i < n; ++i)
        if (entrants[i].kind.is_baseline() && (best < 0 || table.entrants[i].rating > table.entrants[best].rating)) best = i;
    for (int i = 0; i < n && best >= 0; ++i) {
        Vor v;
        v.baseline = entrants[best].name;
        v.value = table.entrants[i].rating - table.entrants[best].rating;
        std::vector<double> w(n, 0.0);
        w[i] += 1;
        w[best] -= 1;
        const Interval iv = i == best ? Interval{0, 0} : containing(around(v.value, posterior_variance(fit, w)), v.value);
        v.low = iv.low;
        v.high = iv.high;
        table.entrants[i].vor = v;
    }

    return table;
}

}  // namespace hschool::league
