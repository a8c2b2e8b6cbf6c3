#include "league/table_json.hpp"

#include <algorithm>
#include <boost/json.hpp>
#include <charconv>
#include <cmath>

namespace hschool::league {
namespace json = boost::json;
namespace {

// Ratings to 0.1 point, scores and margins to 1e-4: the intervals are far wider than either.
constexpr double kRatingStep = 10;
constexpr double kScoreStep = 10000;

// + 0.0 turns a rounded -0 into 0.
double rounded(double v, double steps) { return std::round(v * steps) / steps + 0.0; }

json::value optional_number(const std::optional<double>& v, double steps) {
    return v ? json::value(rounded(*v, steps)) : json::value(nullptr);
}

json::object method_json(const LeagueTable& t) {
    json::object prior;
    prior["strengthSigma"] = kPriorSigmaMargin;
    prior["noiseScale"] = kNoisePriorScale;
    prior["noiseWeight"] = kNoisePriorWeight;
    json::object m;
    m["name"] = kMethodName;
    m["model"] = "margin ~ Normal(delta_a - delta_b, sigma^2), delta ~ Normal(0, strengthSigma^2); "
                 "wins, draws and losses are counted, not rated";
    m["prior"] = std::move(prior);
    m["interval"] = kIntervalName;
    m["level"] = kIntervalLevel;
    m["provisionalWidth"] = kProvisionalWidth;
    m["scale"] = "points: 1500 + 500*delta; the mean of the entrants is 1500, 100 points is a margin of 0.2";
    m["noiseSigma"] = rounded(t.noiseSigma, kScoreStep);
    // The fit is moved to the nearest ratings that order every clearly-decided pairing as its
    // margins do; false when those pairings form a cycle.
    m["clearPairsRespected"] = t.clearPairsRespected;
    return m;
}

json::object entrant_json(const EntrantRow& e) {
    json::object o;
    o["name"] = e.name;
    o["kind"] = e.kind;
    o["rating"] = rounded(e.rating, kRatingStep);
    o["low"] = rounded(e.low, kRatingStep);
    o["high"] = rounded(e.high, kRatingStep);
    o["matches"] = e.matches;
    o["wins"] = e.wins;
    o["draws"] = e.draws;
    o["losses"] = e.losses;
    o["meanScore"] = optional_number(e.meanScore, kScoreStep);
    o["provisional"] = e.provisional;
    if (e.vor) {
        json::object v;
        v["baseline"] = e.vor->baseline;
        v["value"] = rounded(e.vor->value, kRatingStep);
        v["low"] = rounded(e.vor->low, kRatingStep);
        v["high"] = rounded(e.vor->high, kRatingStep);
        o["vor"] = std::move(v);
    } else {
        o["vor"] = nullptr;
    }
    return o;
}

json::object pair_json(const PairRow& p) {
    json::object o;
    o["a"] = p.a;
    o["b"] = p.b;
    o["matches"] = p.matches;
    o["aWins"] = p.aWins;
    o["bWins"] = p.bWins;
    o["draws"] = p.draws;
    o["meanMargin"] = optional_number(p.meanMargin, kScoreStep);
    o["low"] = p.meanMargin ? json::value(rounded(p.margin.low, kScoreStep)) : json::value(nullptr);
    o["high"] = p.meanMargin ? json::value(rounded(p.margin.high, kScoreStep)) : json::value(nullptr);
    return o;
}

json::object result_json(const MatchResult& r) {
    json::object o;
    o["id"] = r.id;
    o["seed"] = r.seed;
    o["variant"] = r.variant;
    o["gameVersion"] = r.gameVersion;
    json::array seats, scores, programs;
    bool anyProgram = false;
    for (int s = 0; s < kSeats; ++s) {
        seats.emplace_back(r.seats[s]);
        scores.emplace_back(r.scores[s]);
        anyProgram = anyProgram || !r.programs[s].empty();
        programs.emplace_back(r.programs[s].empty() ? json::value(nullptr) : json::value(r.programs[s]));
    }
    o["seats"] = std::move(seats);
    o["scores"] = std::move(scores);
    o["replay"] = r.replay;
    if (anyProgram) o["programs"] = std::move(programs);
    return o;
}

std::string number_text(double v) {
    if (!std::isfinite(v)) return "null";
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    std::string s(buf, r.ptr);
    // A double stays a double for typed readers: 1500.0, not 1500.
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s;
}

bool scalar(const json::value& v) { return !v.is_object() && !v.is_array(); }

void write(const json::value& v, int depth, std::string& out) {
    const std::string pad(static_cast<std::size_t>(depth + 1) * 2, ' '), close(static_cast<std::size_t>(depth) * 2, ' ');
    if (v.is_double()) {
        out += number_text(v.get_double());
    } else if (v.is_array()) {
        const auto& a = v.get_array();
        // Six seats or scores read best on one line.
        const bool flat = std::all_of(a.begin(), a.end(), scalar);
        out += '[';
        for (std::size_t i = 0; i < a.size(); ++i) {
            out += i ? (flat ? ", " : ",\n" + pad) : (flat ? "" : "\n" + pad);
            write(a[i], depth + 1, out);
        }
        out += flat || a.empty() ? "]" : "\n" + close + "]";
    } else if (v.is_object()) {
        const auto& o = v.get_object();
        out += '{';
        std::size_t i = 0;
        for (const auto& kv : o) {
            out += (i++ ? ",\n" : "\n") + pad + json::serialize(json::value(kv.key())) + ": ";
            write(kv.value(), depth + 1, out);
        }
        out += o.empty() ? "}" : "\n" + close + "}";
    } else {
        out += json::serialize(v);
    }
}

}  // namespace

const char* league_state_text(LeagueState s) {
    switch (s) {
        case LeagueState::Running: return "running";
        case LeagueState::Finished: return "finished";
        case LeagueState::Stopped: return "stopped";
    }
    return "running";
}

json::value table_json(const LeagueTable& t) {
    json::object o;
    o["version"] = kLeagueJsonVersion;
    o["state"] = league_state_text(t.info.state);
    o["variant"] = t.info.variant;
    o["gameVersion"] = t.info.gameVersion;
    o["seed"] = t.info.seed;
    o["matchesPerPairing"] = t.info.matchesPerPairing;
    o["played"] = t.played;
    o["planned"] = t.info.planned;
    o["method"] = method_json(t);
    json::array entrants, pairs, results;
    for (const auto& e : t.entrants) entrants.emplace_back(entrant_json(e));
    for (const auto& p : t.pairs) pairs.emplace_back(pair_json(p));
    for (const auto& r : t.results) results.emplace_back(result_json(r));
    o["entrants"] = std::move(entrants);
    o["pairs"] = std::move(pairs);
    o["results"] = std::move(results);
    return o;
}

std::string pretty_json(const json::value& value) {
    std::string out;
    write(value, 0, out);
    return out + "\n";
}

}  // namespace hschool::league
