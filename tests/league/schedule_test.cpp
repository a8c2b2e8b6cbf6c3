// The schedule: every pairing, N matches each, interleaved round by round, both trios equally,
// seeds a pure function of the league seed.
#include <gtest/gtest.h>

#include <set>

#include "league/schedule.hpp"
#include "sim/hns/rng.hpp"
#include "league_test_support.hpp"

using namespace league_test;

TEST(LeagueSchedule, EveryPairingInterleavedWithTriosAlternating) {
    const auto entrants = builtins({{"a", "builtin:burrow"}, {"b", "builtin:scatter"}, {"c", "builtin:idle"},
                                    {"d", "builtin:random"}});
    const auto s = league::make_schedule(entrants, 5, 9);
    ASSERT_TRUE(s) << s.error();
    ASSERT_EQ(s->pairings.size(), 6u);
    ASSERT_EQ(s->matches.size(), 30u);
    std::set<std::pair<int, int>> seen;
    for (const auto& p : s->pairings) {
        EXPECT_LT(p.a, p.b);
        seen.insert({p.a, p.b});
    }
    EXPECT_EQ(seen.size(), 6u);
    std::vector<int> firstTrio(6, 0);
    for (const auto& m : s->matches) {
        // Round-robin order: pairing 1 match 1, pairing 2 match 1, ...
        EXPECT_EQ(m.pairing, m.index % 6);
        EXPECT_EQ(m.round, m.index / 6);
        EXPECT_EQ(m.id, std::string(4 - std::to_string(m.index + 1).size(), '0') + std::to_string(m.index + 1));
        const auto& p = s->pairings[m.pairing];
        const std::string& first = entrants[m.aOnFirstTrio ? p.a : p.b].name;
        const std::string& second = entrants[m.aOnFirstTrio ? p.b : p.a].name;
        for (int slot = 0; slot < 6; ++slot) EXPECT_EQ(m.seats[slot], slot % 2 == 0 ? first : second);
        firstTrio[m.pairing] += m.aOnFirstTrio ? 1 : 0;
    }
    for (int held : firstTrio) EXPECT_EQ(held, 3);  // 5 rounds: a on the first trio 3 times, b twice
}

TEST(LeagueSchedule, SeedsDeriveFromTheLeagueSeedOnly) {
    const auto entrants = builtins({{"a", "builtin:burrow"}, {"b", "builtin:scatter"}});
    const auto one = league::make_schedule(entrants, 40, 7);
    const auto two = league::make_schedule(entrants, 40, 7);
    const auto other = league::make_schedule(entrants, 40, 8);
    ASSERT_TRUE(one && two && other);
    std::set<std::int64_t> distinct;
    for (std::size_t i = 0; i < one->matches.size(); ++i) {
        EXPECT_EQ(one->matches[i].seed, two->matches[i].seed);
        EXPECT_GE(one->matches[i].seed, 0);
        distinct.insert(one->matches[i].seed);
    }
    EXPECT_EQ(distinct.size(), one->matches.size());  // every match its own deal
    EXPECT_NE(one->matches[0].seed, other->matches[0].seed);
    // Documented derivation: match k's seed is draw k+1 of splitmix64 from the league seed, top 31 bits.
    std::uint64_t state = 7;
    for (const auto& m : one->matches) EXPECT_EQ(m.seed, static_cast<std::int64_t>(hschool::sim::hns::splitmix64(state) >> 33));
}

TEST(LeagueSchedule, RefusesBadRostersAndCounts) {
    const auto two = builtins({{"a", "builtin:burrow"}, {"b", "builtin:scatter"}});
    EXPECT_FALSE(league::make_schedule(two, 0, 1));
    EXPECT_FALSE(league::make_schedule(two, league::kMaxMatchesPerPairing + 1, 1));
    EXPECT_FALSE(league::make_schedule(two, 1LL << 40, 1));
    EXPECT_TRUE(league::make_schedule(two, league::kMaxMatchesPerPairing, 1));
    EXPECT_FALSE(league::make_schedule({two[0]}, 4, 1));
    EXPECT_FALSE(league::make_schedule({two[0], two[0]}, 4, 1));
    std::vector<league::Entrant> many;
    for (int i = 0; i < 16; ++i) many.push_back({"e" + std::to_string(i), two[0].kind});
    const auto big = league::make_schedule(many, league::kMaxMatchesPerPairing, 1);  // 120 pairings x 1000
    ASSERT_FALSE(big);
    EXPECT_NE(big.error().find("over the limit"), std::string::npos) << big.error();
}

TEST(LeagueEntrants, ParsesKindsAndRefusesBadOnes) {
    for (const char* ok : {"a=builtin:burrow", "b.2=builtin:scatter", "c_3=builtin:idle", "D-4=builtin:random",
                           "p=prompt:policies/v7.txt", "c=cmd:python3 seat.py {url}"}) {
        const auto e = league::parse_entrant(ok);
        ASSERT_TRUE(e) << ok << ": " << e.error();
        EXPECT_EQ(e->name + "=" + e->kind.text(), ok);
    }
    EXPECT_TRUE(league::parse_entrant("a=builtin:burrow")->kind.is_baseline());
    EXPECT_TRUE(league::parse_entrant("a=builtin:scatter")->kind.is_baseline());
    EXPECT_FALSE(league::parse_entrant("a=builtin:idle")->kind.is_baseline());
    for (const char* bad : {"builtin:burrow", "=builtin:burrow", "a=", "a=builtin:", "a=builtin:nope", "a=prompt:",
                            "a=cmd:", "a b=builtin:burrow", "a=zmq:x", "a=cmd:ls\x01", "thisnameiswaytoolongforaleaguetable=builtin:idle"}) {
        const auto e = league::parse_entrant(bad);
        EXPECT_FALSE(e) << bad;
        if (!e) {
            EXPECT_FALSE(e.error().empty());
        }
    }
}
