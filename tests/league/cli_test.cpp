// `hschool-hns league` end to end through the real binary: league.json, every replay verifies and
// carries the table's scores by slot, the same command gives the same table at any --jobs, the
// matches are `hschool-hns run`'s, a mirror pairing overlaps, a clearly weaker entrant is apart,
// and a stopped league writes the table of what finished.
#include <gtest/gtest.h>

#include <map>

#include "league_test_support.hpp"
#include "sim/hns/replay.hpp"

using namespace league_test;
namespace hns = hschool::sim::hns;

namespace {

constexpr int kStopWaitPolls = 1200;  // x 50 ms: the first replays of a league appear far sooner
constexpr auto kPoll = std::chrono::milliseconds(50);

boost::json::object run_league(const std::string& name, std::vector<std::string> args) {
    const fs::path dir = fresh_dir(name);
    args.insert(args.begin(), {"league", "--quiet", "--out", dir.string()});
    const Ran r = run_tool(args);
    EXPECT_EQ(r.code, 0) << r.output;
    return boost::json::parse(read_file(dir / "league.json")).as_object();
}

// Two entrants over 24 matches from seed 1: enough matches for their intervals to say something.
boost::json::object two_entrant_league(const std::string& name, const std::string& a, const std::string& b) {
    return run_league(name, {"--entrant", a, "--entrant", b, "--matches", "24", "--seed", "1"});
}

const boost::json::object& entrant(const boost::json::object& table, const std::string& name) {
    for (const auto& e : table.at("entrants").as_array())
        if (e.at("name").as_string() == name) return e.as_object();
    ADD_FAILURE() << "no entrant " << name;
    return table;
}

// The replay's own account: score and register policy by slot (through its join records).
struct ReplayAccount {
    std::array<double, 6> scores{};
    std::array<std::string, 6> policies;
    std::int64_t seed = -1;
};

ReplayAccount read_replay(const fs::path& file) {
    ReplayAccount out;
    const auto data = hns::parse_replay(read_file(file));
    EXPECT_TRUE(data) << file << ": " << data.error;
    if (!data) return out;
    out.seed = boost::json::parse(data->configJson).at("seed").as_int64();
    std::map<int, int> slotOf;
    for (const auto& j : data->joins) slotOf[j.player] = j.slot;
    for (const auto& chat : data->chats) {
        if (chat.message.rfind("{\"k\":", 0) != 0) continue;
        const auto record = boost::json::parse(chat.message).as_object();
        if (record.at("k") == "register")
            out.policies[static_cast<std::size_t>(record.at("slot").as_int64())] = record.at("policy").as_string().c_str();
        if (record.at("k") == "result") {
            const auto& scores = record.at("results").at("scores").as_array();
            for (std::size_t player = 0; player < scores.size(); ++player)
                out.scores[static_cast<std::size_t>(slotOf.at(static_cast<int>(player)))] = scores[player].as_double();
        }
    }
    return out;
}

}  // namespace

TEST(LeagueCli, TableReplaysAndScoresAgree) {
    const auto table = run_league("e2e", {"--entrant", "b=builtin:burrow", "--entrant", "i=builtin:idle", "--entrant",
                                          "r=builtin:random", "--matches", "2", "--seed", "5", "--jobs", "2"});
    const fs::path dir = scratch_dir("e2e");
    EXPECT_EQ(table.at("state"), "finished");
    EXPECT_EQ(table.at("played").as_int64(), 6);
    EXPECT_EQ(table.at("planned").as_int64(), 6);
    EXPECT_EQ(table.at("variant"), "certification");
    const std::map<std::string, std::string> policyOf{{"b", "burrow"}, {"i", "idle"}, {"r", "random"}};
    std::map<std::string, std::array<int, 4>> record;  // wins, draws, losses, matches — recounted by seats
    const auto& results = table.at("results").as_array();
    ASSERT_EQ(results.size(), 6u);
    for (const auto& row : results) {
        const fs::path replay = dir / std::string(row.at("replay").as_string());
        ASSERT_TRUE(fs::exists(replay)) << replay;
        EXPECT_EQ(std::string(row.at("replay").as_string()), std::string(row.at("id").as_string()) + ".cowldhns");
        const Ran verify = run_tool({"verify", replay.string()});
        EXPECT_EQ(verify.code, 0) << verify.output;
        const ReplayAccount account = read_replay(replay);
        EXPECT_EQ(account.seed, row.at("seed").as_int64());
        for (int s = 0; s < 6; ++s) {
            const std::string seat(row.at("seats").as_array()[s].as_string());
            EXPECT_DOUBLE_EQ(account.scores[s], row.at("scores").as_array()[s].as_double()) << "slot " << s;
            EXPECT_EQ(account.policies[s], policyOf.at(seat)) << "slot " << s;  // the seat played as its entrant
        }
        for (int trio = 0; trio < 2; ++trio) {
            const double score = account.scores[trio];
            auto& r = record[std::string(row.at("seats").as_array()[trio].as_string())];
            (score > 0 ? r[0] : score < 0 ? r[2] : r[1])++;
            r[3]++;
        }
    }
    for (const auto& [name, r] : record) {
        const auto& e = entrant(table, name);
        EXPECT_EQ(e.at("wins").as_int64(), r[0]) << name;
        EXPECT_EQ(e.at("draws").as_int64(), r[1]) << name;
        EXPECT_EQ(e.at("losses").as_int64(), r[2]) << name;
        EXPECT_EQ(e.at("matches").as_int64(), r[3]) << name;
        EXPECT_LE(e.at("low").as_double(), e.at("rating").as_double());
        EXPECT_LE(e.at("rating").as_double(), e.at("high").as_double());
    }
    EXPECT_EQ(entrant(table, "b").at("vor").at("value").as_double(), 0.0);
    EXPECT_EQ(entrant(table, "i").at("vor").at("baseline"), "b");
}

TEST(LeagueCli, TheSameCommandGivesTheSameTableAtAnyJobs) {
    const std::vector<std::string> args{"--entrant", "x=builtin:scatter", "--entrant", "y=builtin:random",
                                        "--entrant", "z=builtin:burrow", "--matches", "3", "--seed", "-12"};
    auto one = args, two = args;
    one.insert(one.end(), {"--jobs", "1"});
    two.insert(two.end(), {"--jobs", "2"});
    run_league("jobs1", one);
    run_league("jobs2", two);
    const fs::path a = scratch_dir("jobs1"), b = scratch_dir("jobs2");
    EXPECT_EQ(read_file(a / "league.json"), read_file(b / "league.json"));
    for (const auto& file : fs::directory_iterator(a)) EXPECT_EQ(read_file(file.path()), read_file(b / file.path().filename()));
}

TEST(LeagueCli, MatchesAreTheRunCommandsMatches) {
    const auto table = run_league("asrun", {"--entrant", "b=builtin:burrow", "--entrant", "s=builtin:scatter",
                                            "--matches", "2", "--seed", "3"});
    const fs::path dir = fresh_dir("asrun-run");
    fs::create_directories(dir);
    for (const auto& row : table.at("results").as_array()) {
        std::string seats;
        for (const auto& s : row.at("seats").as_array()) seats += std::string(seats.empty() ? "" : ",") + (s == "b" ? "burrow" : "scatter");
        const fs::path replay = dir / "run.cowldhns";
        const Ran ran = run_tool({"run", "--quiet", "--variant", "certification", "--seed",
                                  std::to_string(row.at("seed").as_int64()), "--seats", seats, "--replay", replay.string()});
        ASSERT_EQ(ran.code, 0) << ran.output;
        EXPECT_EQ(read_file(replay), read_file(scratch_dir("asrun") / std::string(row.at("replay").as_string())));
    }
}

TEST(LeagueCli, AMirrorPairingOverlaps) {
    const auto table = two_entrant_league("mirror", "one=builtin:burrow", "two=builtin:burrow");
    const auto& a = entrant(table, "one");
    const auto& b = entrant(table, "two");
    EXPECT_LE(a.at("low").as_double(), b.at("high").as_double());
    EXPECT_LE(b.at("low").as_double(), a.at("high").as_double());
}

// builtin:random is the clearly weaker entrant here. builtin:idle is not: with the published
// seekers never chasing (docs, oddity 6) burrow wins only somewhat more of their matches and idle
// wins by larger margins (docs/hide-and-seek.md, "Leagues").
TEST(LeagueCli, AClearlyWeakerEntrantIsApart) {
    const auto table = two_entrant_league("weaker", "burrow=builtin:burrow", "random=builtin:random");
    const auto& strong = entrant(table, "burrow");
    const auto& weak = entrant(table, "random");
    EXPECT_GT(strong.at("low").as_double(), weak.at("high").as_double());
    EXPECT_GT(weak.at("vor").at("high").as_double(), weak.at("vor").at("low").as_double());
    EXPECT_LT(weak.at("vor").at("high").as_double(), 0.0);
}

TEST(LeagueCli, AStoppedLeagueWritesTheTableOfWhatFinished) {
    const fs::path dir = fresh_dir("stopped");
    Child child({"league", "--quiet", "--out", dir.string(), "--entrant", "a=builtin:burrow", "--entrant",
                 "b=builtin:scatter", "--matches", "1000", "--jobs", "1"},
                fs::path(HSCHOOL_TEST_SCRATCH_DIR) / "league-stopped.txt");
    for (int poll = 0; poll < kStopWaitPolls && !fs::exists(dir / "0003.cowldhns"); ++poll) std::this_thread::sleep_for(kPoll);
    if (!fs::exists(dir / "0003.cowldhns")) {
        child.signal(SIGKILL);
        child.wait();
        FAIL() << "no third replay: " << child.output();
    }
    child.signal(SIGINT);
    EXPECT_EQ(child.wait(), 130) << child.output();
    const auto table = boost::json::parse(read_file(dir / "league.json")).as_object();
    EXPECT_EQ(table.at("state"), "stopped");
    const auto played = table.at("played").as_int64();
    EXPECT_GE(played, 3);
    EXPECT_LT(played, 1000);
    EXPECT_EQ(table.at("planned").as_int64(), 1000);
    const auto& results = table.at("results").as_array();
    ASSERT_EQ(static_cast<std::int64_t>(results.size()), played);
    for (std::size_t k = 0; k < results.size(); ++k) {
        // What finished is a prefix of the schedule: every match handed out was played to its end.
        EXPECT_EQ(std::stoi(std::string(results[k].at("id").as_string())), static_cast<int>(k) + 1);
        EXPECT_TRUE(fs::exists(dir / std::string(results[k].at("replay").as_string())));
    }
    EXPECT_EQ(entrant(table, "a").at("matches").as_int64(), played);
}
