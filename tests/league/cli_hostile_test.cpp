// Bad input to `hschool-hns league`: a clear message and exit code 2, never a crash, and no
// match played.
#include <gtest/gtest.h>

#include <fstream>

#include "league_test_support.hpp"

using namespace league_test;

namespace {

// CTest runs each case as a process of its own, side by side: each gets its own folder.
fs::path own_dir() { return fresh_dir(std::string("hostile-") + testing::UnitTest::GetInstance()->current_test_info()->name()); }

void expect_refused(std::vector<std::string> args, const std::string& message) {
    const fs::path out = own_dir();
    args.insert(args.begin(), "league");
    if (std::find(args.begin(), args.end(), "--out") == args.end()) args.insert(args.end(), {"--out", out.string()});
    const Ran r = run_tool(args);
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << "expected '" << message << "' in: " << r.output;
    EXPECT_FALSE(fs::exists(out / "0001.cowldhns"));
}

const std::vector<std::string> kTwo{"--entrant", "a=builtin:burrow", "--entrant", "b=builtin:scatter"};

std::vector<std::string> two_and(std::vector<std::string> more) {
    auto args = kTwo;
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

}  // namespace

TEST(LeagueCliHostile, UnknownKind) {
    expect_refused({"--entrant", "a=builtin:burrow", "--entrant", "b=builtin:nonsense"}, "unknown kind 'builtin:nonsense'");
    expect_refused({"--entrant", "a=builtin:burrow", "--entrant", "b=docker:image"}, "unknown kind");
    expect_refused({"--entrant", "a=builtin:burrow", "--entrant", "b"}, "expected NAME=KIND");
    expect_refused({"--entrant", "a=builtin:burrow", "--entrant", "b c=builtin:idle"}, "entrant name");
}

TEST(LeagueCliHostile, DuplicateName) {
    expect_refused({"--entrant", "a=builtin:burrow", "--entrant", "a=builtin:idle"}, "'a' given twice");
}

TEST(LeagueCliHostile, FewerThanTwoEntrants) {
    expect_refused({"--entrant", "a=builtin:burrow"}, "at least 2 entrants");
}

TEST(LeagueCliHostile, MatchesOutOfRange) {
    expect_refused(two_and({"--matches", "0"}), "--matches must be 1 to 1000");
    expect_refused(two_and({"--matches", "-3"}), "--matches must be 1 to 1000");
    expect_refused(two_and({"--matches", "1001"}), "--matches must be 1 to 1000");
    expect_refused(two_and({"--matches", "99999999999999999999999"}), "--matches");
    expect_refused(two_and({"--matches", "many"}), "--matches");
    std::vector<std::string> sixteen;
    for (int i = 0; i < 16; ++i) sixteen.insert(sixteen.end(), {"--entrant", "e" + std::to_string(i) + "=builtin:idle"});
    sixteen.insert(sixteen.end(), {"--matches", "200"});
    expect_refused(sixteen, "over the limit of 20000");
}

TEST(LeagueCliHostile, BadJobsVariantAndFolder) {
    expect_refused(two_and({"--jobs", "-1"}), "--jobs must be 1 to 64");
    expect_refused(two_and({"--jobs", "65"}), "--jobs must be 1 to 64");
    expect_refused(two_and({"--variant", "nowhere"}), "variant: unknown nowhere");
    // A folder below a plain file cannot be made, even by root.
    const fs::path file = fresh_dir("plain-file");
    std::ofstream(file) << "x";
    expect_refused(two_and({"--out", (file / "league").string()}), "cannot create the folder");
    expect_refused({"--entrant", "a=builtin:burrow", "--entrant", "b=builtin:idle", "--out", ""}, "--out");
}

// prompt: and cmd: entrants play through the server; what they need is checked before any match.
TEST(LeagueCliHostile, PromptAndCommandEntrantsAreCheckedFirst) {
    expect_refused({"--entrant", "a=builtin:burrow", "--entrant", "p=prompt:no-such-policy.txt"},
                   "entrant p (prompt:no-such-policy.txt): cannot read no-such-policy.txt");
    const fs::path longPrompt = own_dir().string() + "-prompt.txt";
    std::ofstream(longPrompt) << std::string(5000, 'x');
    expect_refused({"--entrant", "a=builtin:burrow", "--entrant", "p=prompt:" + longPrompt.string()}, "is too long");
    expect_refused({"--entrant", "c=cmd:python3 seat.py {url}", "--entrant", "a=builtin:burrow", "--server", "/no/such/server"},
                   "--server /no/such/server: not an executable file");
    expect_refused({"--entrant", "c=cmd:true", "--entrant", "a=builtin:burrow", "--program-grace", "0"}, "--program-grace");
}

TEST(LeagueCliHostile, NoEntrantsAtAll) {
    const Ran r = run_tool({"league", "--out", own_dir().string()});
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find("--entrant"), std::string::npos) << r.output;
}
