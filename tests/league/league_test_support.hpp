#pragma once
// Shared helpers for the league tests: synthetic results, and the hschool-hns binary run as a
// child process (no shell: arguments pass as they are, and a test can signal the child).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <boost/json.hpp>
#include <chrono>
#include <filesystem>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "league/rating.hpp"
#include "league/table.hpp"

namespace league_test {
namespace league = hschool::league;
namespace fs = std::filesystem;

inline std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// A folder under the test's build folder; fresh_dir empties it first.
inline fs::path scratch_dir(const std::string& name) { return fs::path(HSCHOOL_TEST_SCRATCH_DIR) / "league-scratch" / name; }
inline fs::path fresh_dir(const std::string& name) {
    const fs::path dir = scratch_dir(name);
    fs::remove_all(dir);
    fs::create_directories(dir.parent_path());
    return dir;
}

// A match between x (seats 0, 2, 4) and y (1, 3, 5) that x's trio scored `score` in.
inline league::MatchResult synthetic(int id, const std::string& x, const std::string& y, double score) {
    league::MatchResult r;
    r.id = std::to_string(id);
    r.variant = "synthetic";
    r.gameVersion = "2";
    for (int s = 0; s < league::kSeats; ++s) {
        r.seats[s] = s % 2 == 0 ? x : y;
        r.scores[s] = s % 2 == 0 ? score : -score;
    }
    return r;
}

inline std::vector<league::Entrant> builtins(const std::vector<std::pair<std::string, std::string>>& namesAndKinds) {
    std::vector<league::Entrant> out;
    for (const auto& [name, kind] : namesAndKinds) {
        auto e = league::parse_entrant(name + "=" + kind);
        EXPECT_TRUE(e) << e.error();
        out.push_back(*e);
    }
    return out;
}

class Child {
public:
    // Starts hschool-hns with `args`; stdout and stderr go to one file.
    explicit Child(const std::vector<std::string>& args, const fs::path& output) : output_(output) {
        std::vector<std::string> argv{HSCHOOL_HNS_TOOL};
        argv.insert(argv.end(), args.begin(), args.end());
        std::vector<char*> raw;
        for (auto& a : argv) raw.push_back(a.data());
        raw.push_back(nullptr);
        pid_ = fork();
        if (pid_ == 0) {
            FILE* out = std::fopen(output.c_str(), "w");
            if (out == nullptr) _exit(127);
            dup2(fileno(out), 1);
            dup2(fileno(out), 2);
            execv(raw[0], raw.data());
            _exit(127);
        }
    }
    void signal(int sig) const { kill(pid_, sig); }
    // The exit code, or -1 when it died of a signal.
    int wait() {
        int status = 0;
        waitpid(pid_, &status, 0);
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    std::string output() const { return read_file(output_); }

private:
    pid_t pid_ = -1;
    fs::path output_;
};

struct Ran {
    int code = -1;
    std::string output;
};

inline Ran run_tool(const std::vector<std::string>& args) {
    static int calls = 0;
    const fs::path out = fs::path(HSCHOOL_TEST_SCRATCH_DIR) / ("league-tool-" + std::to_string(getpid()) + "-" +
                                                               std::to_string(++calls) + ".txt");
    Child child(args, out);
    Ran r;
    r.code = child.wait();
    r.output = child.output();
    fs::remove(out);
    return r;
}

}  // namespace league_test

namespace league_test {

// Deterministic draws for synthetic leagues (the raw engine output is fixed by the standard).
class Draws {
public:
    explicit Draws(std::uint64_t seed) : engine_(seed) {}
    double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
    std::uint64_t below(std::uint64_t n) { return engine_() % n; }

private:
    std::mt19937_64 engine_;
};

// `perPairing` matches of every pairing, each margin drawn from the margin model at the true
// ratings (points around 0, rating.hpp's scale) with residual sd `noise`, kept within [-2, 2].
inline std::vector<league::Game> simulate_games(const std::vector<double>& points, double noise, int perPairing,
                                                Draws& draws) {
    std::vector<league::Game> games;
    const int n = static_cast<int>(points.size());
    for (int round = 0; round < perPairing; ++round)
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j) {
                const double u1 = 1 - draws.uniform(), u2 = draws.uniform();
                const double normal = std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
                const double mean = (points[i] - points[j]) / league::kRatingPerMargin;
                games.push_back({i, j, std::clamp(mean + noise * normal, -league::kMaxMargin, league::kMaxMargin)});
            }
    return games;
}

// The same outcomes as table input: entrant i holds the first trio in even rounds.
inline std::vector<league::MatchResult> as_results(const std::vector<league::Game>& games,
                                                   const std::vector<league::Entrant>& entrants) {
    std::vector<league::MatchResult> out;
    int id = 0;
    for (const auto& g : games) {
        const double score = g.margin / 2;  // a trio's score; the two trios' differ by the margin
        ++id;
        out.push_back(id % 2 == 0 ? synthetic(id, entrants[g.i].name, entrants[g.j].name, score)
                                  : synthetic(id, entrants[g.j].name, entrants[g.i].name, -score));
    }
    return out;
}

}  // namespace league_test
