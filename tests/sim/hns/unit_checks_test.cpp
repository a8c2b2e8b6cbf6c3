// One cog through the real step (vectors/unit_checks.json): the motion table with coasting
// (§3.6), carrying a crate at the capped speed, and aim under B (§3.7). Certification seed 42,
// six joined before step 1 (the game starts at tick 1); the checked cog's masks start at tick 2.
#include <gtest/gtest.h>

#include "hns_test_support.hpp"
#include "sim/hns/aim.hpp"
#include "sim/hns/constants.hpp"

using namespace hns_test;

namespace {

}  // namespace

TEST(HnsUnitChecks, RightHeld24TicksThenCoasting) {
    const auto rows = vector_json("unit_checks.json").at("rightHeld24ThenReleased_slot0_fromPad").as_array();
    hns::Sim sim = started_certification();
    const int x0 = sim.players()[0].x;
    std::vector<hns::Input> prev(6), cur(6);
    for (const auto& row : rows) {
        const int k = static_cast<int>(row.at("k").as_int64());
        cur[0].mask = k <= 24 ? hns::kBtnRight : 0;
        sim.step(cur, prev);
        prev = cur;
        const auto& p = sim.players()[0];
        EXPECT_EQ(p.x - x0, row.at("dx").as_int64()) << "k " << k;
        EXPECT_EQ(p.velX, row.at("velX").as_int64()) << "k " << k;
        EXPECT_EQ(p.carryX, row.at("carryX").as_int64()) << "k " << k;
        EXPECT_EQ(sim.hash(), hex(row.at("hash"))) << "k " << k;
    }
}

TEST(HnsUnitChecks, CarryingACrateRightCapsAt387) {
    const auto rows = vector_json("unit_checks.json").at("carryRight_slot2_at130x340_box4").as_array();
    hns::Sim sim = started_certification();
    sim.place_player(2, 130, 340);
    const int x0 = 130;
    std::vector<hns::Input> prev(6), cur(6);
    for (const auto& row : rows) {
        const int k = static_cast<int>(row.at("k").as_int64());
        cur[2].mask = hns::kBtnC | hns::kBtnRight;
        sim.step(cur, prev);
        prev = cur;
        const auto& p = sim.players()[2];
        EXPECT_EQ(p.x - x0, row.at("dx").as_int64()) << "k " << k;
        EXPECT_EQ(p.velX, row.at("velX").as_int64()) << "k " << k;
        EXPECT_EQ(p.holding, row.at("holding").as_int64()) << "k " << k;
        EXPECT_EQ(sim.objects()[3].x, row.at("boxX").as_int64()) << "k " << k;
        EXPECT_EQ(sim.geometry_epoch(), row.at("epoch").as_int64()) << "k " << k;
        EXPECT_EQ(p.pushedPx, row.at("pushedPx").as_int64()) << "k " << k;
        EXPECT_EQ(sim.hash(), hex(row.at("hash"))) << "k " << k;
    }
}

TEST(HnsUnitChecks, AimUnderBTurnsSixBradsATick) {
    const auto aims = vector_json("unit_checks.json").at("aimBHeld_slot0").as_array();
    hns::Sim sim = started_certification();
    std::vector<hns::Input> prev(6), cur(6);
    cur[0].mask = hns::kBtnB;
    for (const auto& a : aims) {
        sim.step(cur, prev);
        prev = cur;
        EXPECT_EQ(sim.players()[0].aimBrads, a.as_int64());
    }
}

TEST(HnsUnitChecks, SelectTurnsBackAndBothCancel) {
    hns::Sim sim = started_certification();
    std::vector<hns::Input> prev(6), cur(6);
    cur[0].mask = hns::kBtnSelect;
    sim.step(cur, prev);
    EXPECT_EQ(sim.players()[0].aimBrads, 250);
    cur[0].mask = hns::kBtnSelect | hns::kBtnB;
    sim.step(cur, cur);
    EXPECT_EQ(sim.players()[0].aimBrads, 250);
}

TEST(HnsUnitChecks, AimTableMatchesTheSpecQuadrants) {
    EXPECT_EQ(hns::aim_unit(0).x, 1024);
    EXPECT_EQ(hns::aim_unit(0).y, 0);
    EXPECT_EQ(hns::aim_unit(64).x, 0);
    EXPECT_EQ(hns::aim_unit(64).y, -1024);
    EXPECT_EQ(hns::aim_unit(128).x, -1024);
    EXPECT_EQ(hns::aim_unit(192).y, 1024);
    EXPECT_EQ(hns::aim_unit(32).x, 724);
    EXPECT_EQ(hns::aim_unit(32).y, -724);
}
