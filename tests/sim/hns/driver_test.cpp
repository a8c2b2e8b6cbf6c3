// The seats' driver and baselines (§3.15): masks never hold Up+Down or Left+Right, a hider walks
// to its goal, A is never pressed during a lock cooldown, and whole baseline matches are
// deterministic and verify.
#include <gtest/gtest.h>

#include "hns_test_support.hpp"
#include "sim/hns/baselines.hpp"
#include "sim/hns/constants.hpp"
#include "sim/hns/driver.hpp"
#include "sim/hns/match.hpp"
#include "sim/hns/verify.hpp"

using namespace hns_test;

namespace {

// GameVersion 1 unless asked: the reference numbers these tests pin are GameVersion 1's.
hns::GameConfig pinned(const std::string& variant, long long seed, hns::GameVersion version = hns::GameVersion::V1) {
    auto c = hns::variant_config(variant);
    EXPECT_TRUE(c);
    c->seed = seed;
    c->gameVersion = version;
    auto p = hns::resolve_room_spec(*c);
    EXPECT_TRUE(p) << p.error;
    return *p;
}

}  // namespace

TEST(HnsDriver, MasksNeverHoldOpposingDirections) {
    for (const char* kind : {"burrow", "scatter"}) {
        hns::Sim sim = make_sim("warren", 3);
        join_six(sim);
        hns::Driver driver(sim);
        std::vector<hns::Order> orders(6);
        std::vector<hns::Input> masks(6), prev(6);
        while (!sim.finished()) {
            if (sim.phase() == hns::GamePhase::Playing && sim.game_tick() % 90 == 0)
                for (int s = 0; s < 6; ++s)
                    if (!sim.frozen_seeker(s))
                        orders[s] = hns::baseline_order(hns::parse_baseline(kind), sim, driver, s, sim.game_tick() / 90);
            const bool playing = sim.phase() == hns::GamePhase::Playing;
            if (playing) driver.observe(sim);
            for (int s = 0; s < 6; ++s) {
                const std::uint8_t m = playing ? driver.compile_mask(sim, orders[s], s) : 0;
                ASSERT_FALSE((m & hns::kBtnUp) && (m & hns::kBtnDown));
                ASSERT_FALSE((m & hns::kBtnLeft) && (m & hns::kBtnRight));
                ASSERT_FALSE((m & hns::kBtnB) && (m & hns::kBtnSelect));
                if (m & hns::kBtnA) {
                    ASSERT_EQ(sim.players()[s].lockCooldown, 0);
                }
                masks[s].mask = sim.frozen_seeker(s) ? 0 : m;
            }
            sim.step(masks, prev);
            prev = masks;
        }
    }
}

TEST(HnsDriver, MoveToWalksToTheGoal) {
    hns::Sim sim = make_sim("certification", 42);
    join_six(sim);
    std::vector<hns::Input> zero(6);
    sim.step(zero, zero);
    hns::Driver driver(sim);
    hns::Order order;
    order.intent = hns::Intent::MoveTo;
    order.at = "p2";  // warren pocket (224,168), in hider 0's closet
    std::vector<hns::Input> masks(6), prev(6);
    for (int t = 0; t < 170; ++t) {
        driver.observe(sim);
        masks[0].mask = driver.compile_mask(sim, order, 0);
        sim.step(masks, prev);
        prev = masks;
    }
    const auto& p = sim.players()[0];
    EXPECT_LE((p.x - 224) * (p.x - 224) + (p.y - 168) * (p.y - 168), 24 * 24) << p.x << "," << p.y;
}

TEST(HnsDriver, BradsHelpers) {
    EXPECT_EQ(hns::brads_of_vector(10, 0), 0);
    EXPECT_EQ(hns::brads_of_vector(0, -10), 64);
    EXPECT_EQ(hns::brads_of_vector(-10, 0), 128);
    EXPECT_EQ(hns::brads_of_vector(0, 10), 192);
    EXPECT_EQ(hns::brads_err(10, 250), 16);
    EXPECT_EQ(hns::brads_err(250, 10), -16);
    EXPECT_EQ(hns::parse_baseline(" Scatter "), hns::Baseline::Scatter);
    EXPECT_EQ(hns::parse_baseline("anything"), hns::Baseline::Burrow);
}

TEST(HnsMatchRunner, SameSeedGivesByteIdenticalReplaysThatVerify) {
    const auto config = pinned("certification", 42);
    hns::MatchOptions opt;
    opt.seats = {hns::Baseline::Burrow, hns::Baseline::Scatter, hns::Baseline::Burrow,
                 hns::Baseline::Scatter, hns::Baseline::Burrow, hns::Baseline::Scatter};
    auto a = hns::run_match(config, opt);
    auto b = hns::run_match(config, opt);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->replay, b->replay);
    EXPECT_EQ(a->finalTick, 949);
    auto data = hns::parse_replay(a->replay);
    ASSERT_TRUE(data) << data.error;
    const auto r = hns::verify_replay(*data);
    EXPECT_TRUE(r.ok) << r.message();
    EXPECT_EQ(r.checked, 949);
    EXPECT_EQ(boost::json::parse(r.results), boost::json::parse(a->results));
}

TEST(HnsMatchRunner, DefaultMatchScoresAreZeroSumAndBounded) {
    for (long long seed : {0, 1, 2}) {
        auto out = hns::run_match(pinned("warren", seed), hns::MatchOptions{});
        ASSERT_TRUE(out);
        const auto r = boost::json::parse(out->results).as_object();
        EXPECT_EQ(r.at("finalTick").as_int64(), 2760);
        double sum = 0;
        for (const auto& s : r.at("scores").as_array()) {
            sum += s.as_double();
            EXPECT_LE(std::abs(s.as_double()), 1.0);
        }
        EXPECT_NEAR(sum, 0.0, 1e-9);
        for (int g = 0; g < 2; ++g)
            EXPECT_EQ(r.at("hiddenTicks").as_array()[g].as_int64() + r.at("seenTicks").as_array()[g].as_int64(),
                      r.at("huntTicksPlayed").as_array()[g].as_int64());
    }
}

// vectors/variants_sensitivity.json records what the reference's own control code produced
// with one change: knownEnemy given the starter's success return ("ke"), and chaseRadius 440
// ("ke440"). Our driver with enemy memory on must reproduce those runs bit for bit, which pins
// the driver, the baselines and the match loop (turns, shouts) to the reference's.
TEST(HnsMatchRunner, ReferenceControlCodeWithEnemyMemoryMatchesBitForBit) {
    const auto doc = vector_json("variants_sensitivity.json").at("variants").as_object();
    struct Case {
        const char* variant;
        const char* match;
        bool scatterSeekers;
        int chaseRadius;
    };
    const Case cases[] = {{"ke", "cert_burrow6", false, 340},
                          {"ke", "cert_burrow_scatter", true, 340},
                          {"ke440", "cert_burrow6", false, 440},
                          {"ke440", "cert_burrow_scatter", true, 440}};
    for (const Case& c : cases) {
        SCOPED_TRACE(std::string(c.variant) + " " + c.match);
        const auto& want = doc.at(c.variant).at("changedMatches").at(c.match).as_object();
        hns::MatchOptions opt;
        opt.enemyMemory = true;
        opt.params = hns::BaselineParams{};
        opt.params->chaseRadius = c.chaseRadius;
        for (int s = 0; s < 6; ++s)
            opt.seats[s] = c.scatterSeekers && s % 2 == 1 ? hns::Baseline::Scatter : hns::Baseline::Burrow;
        auto out = hns::run_match(pinned("certification", 42), opt);
        ASSERT_TRUE(out);
        EXPECT_EQ(out->finalHash, hex(want.at("finalHash")));
        const auto r = boost::json::parse(out->results).as_object();
        EXPECT_EQ(r.at("gameMargins"), want.at("gameMargins"));
        EXPECT_EQ(r.at("seatSeenTicks"), want.at("seatSeenTicks"));
    }
}

TEST(HnsMatchRunner, PublishedBaselinesArePinnedAcrossBuilds) {
    // Our own regression pin (release and ASan builds must agree): six burrow seats,
    // certification seed 42, enemy memory off as in the published reference code.
    auto out = hns::run_match(pinned("certification", 42), hns::MatchOptions{});
    ASSERT_TRUE(out);
    EXPECT_EQ(out->finalHash, 0x2bf4c5d51a03475aULL);
    EXPECT_EQ(boost::json::parse(out->results).at("gameMargins"), boost::json::parse("[269,269]"));
}

TEST(HnsMatchRunner, WallClockStopIsRecordedAndReplays) {
    hns::MatchOptions opt;
    opt.wallClockStopTick = 300;
    auto out = hns::run_match(pinned("certification", 42), opt);
    ASSERT_TRUE(out);
    EXPECT_EQ(out->finalTick, 301);  // the stop record, then one more step and its hash
    const auto r = boost::json::parse(out->results).as_object();
    EXPECT_EQ(r.at("reason").as_string(), "deadline");
    EXPECT_EQ(r.at("endRule").as_string(), "wall_clock");
    EXPECT_EQ(r.at("games").as_int64(), 2);
    auto data = hns::parse_replay(out->replay);
    ASSERT_TRUE(data);
    bool sawStop = false;
    for (const auto& c : data->chats)
        sawStop = sawStop || c.message == R"({"k":"stop","tick":300,"endRule":"wall_clock"})";
    EXPECT_TRUE(sawStop);
    EXPECT_EQ(data->hashes.back().tick, 301u);
    const auto v = hns::verify_replay(*data);
    EXPECT_TRUE(v.ok) << v.message();
    EXPECT_EQ(boost::json::parse(v.results).at("reason").as_string(), "deadline");
}

TEST(HnsMatchRunner, LobbyTimeoutAndDeadSeatsAreReported) {
    hns::Sim sim = make_sim("certification", 42);
    std::vector<hns::Input> none;
    for (int i = 0; i < 4799; ++i) sim.step(none, none);
    EXPECT_FALSE(sim.lobby_join_timed_out());
    sim.step(none, none);
    EXPECT_TRUE(sim.lobby_join_timed_out());
    sim.set_dead_seat(5);
    EXPECT_EQ(boost::json::parse(sim.results_json()).at("deadSeats"),
              boost::json::parse("[false,false,false,false,false,true]"));
}
