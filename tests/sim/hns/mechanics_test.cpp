// The rules one at a time, on the certification room with cogs placed by hand: grab, lock
// (own team, other team, cooldown), a push blocked by a wall, keep-clear around seeker pads,
// shadowcast behind a wall and behind furniture, the spotted latch, shouts.
#include <gtest/gtest.h>

#include "hns_test_support.hpp"
#include "sim/hns/constants.hpp"

using namespace hns_test;

namespace {

// The tests start from started_certification(), whose deal has box4 at (144,312) 64x64.

void tick(hns::Sim& sim, int slot, std::uint8_t mask, std::uint8_t prevMask = 0) {
    std::vector<hns::Input> cur(6), prev(6);
    cur[slot].mask = mask;
    prev[slot].mask = prevMask;
    sim.step(cur, prev);
}

void run_to_hunt(hns::Sim& sim) {
    std::vector<hns::Input> zero(6);
    while (sim.match_phase() != hns::MatchPhase::Hunt) sim.step(zero, zero);
}

}  // namespace

TEST(HnsMechanics, GrabNeedsAFreshCPressAndTheObjectAhead) {
    hns::Sim sim = started_certification();
    sim.place_player(2, 130, 340);  // facing east, box4's left edge 8 px past the body
    tick(sim, 2, hns::kBtnC, hns::kBtnC);  // held, not fresh: nothing
    EXPECT_EQ(sim.players()[2].holding, -1);
    tick(sim, 2, hns::kBtnC, 0);
    EXPECT_EQ(sim.players()[2].holding, 3);
    EXPECT_EQ(sim.objects()[3].heldBy, 2);
    EXPECT_EQ(sim.last_results()[2], hns::ActionResult::Grabbed);
    tick(sim, 2, 0, hns::kBtnC);  // releasing C drops it
    EXPECT_EQ(sim.players()[2].holding, -1);
    EXPECT_EQ(sim.objects()[3].heldBy, -1);
    EXPECT_EQ(sim.last_results()[2], hns::ActionResult::Dropped);
}

TEST(HnsMechanics, LockOwnTeamUnlocksOtherTeamRefusedAndCooldown) {
    hns::Sim sim = started_certification();
    sim.place_player(2, 130, 340);
    tick(sim, 2, hns::kBtnA);
    EXPECT_EQ(sim.objects()[3].lockedBy, hns::LockOwner::Hiders);
    EXPECT_EQ(sim.players()[2].locks, 1);
    EXPECT_EQ(sim.players()[2].lockCooldown, 24);
    // Another fresh press inside the cooldown does nothing.
    tick(sim, 2, 0);
    tick(sim, 2, hns::kBtnA);
    EXPECT_EQ(sim.objects()[3].lockedBy, hns::LockOwner::Hiders);
    for (int i = 0; i < 24; ++i) tick(sim, 2, 0);
    tick(sim, 2, hns::kBtnA);
    EXPECT_EQ(sim.objects()[3].lockedBy, hns::LockOwner::None);
    EXPECT_EQ(sim.last_results()[2], hns::ActionResult::Unlocked);
    // A seeker may not unlock a hider lock.
    for (int i = 0; i < 25; ++i) tick(sim, 2, 0);
    tick(sim, 2, hns::kBtnA);
    EXPECT_EQ(sim.objects()[3].lockedBy, hns::LockOwner::Hiders);
    run_to_hunt(sim);
    sim.place_player(1, 222, 340);  // a seeker east of box4, facing west (aim 128)
    tick(sim, 1, hns::kBtnA);
    EXPECT_EQ(sim.objects()[3].lockedBy, hns::LockOwner::Hiders);
    EXPECT_EQ(sim.last_results()[1], hns::ActionResult::LockRefused);
    // Nor grab it.
    tick(sim, 1, hns::kBtnC);
    EXPECT_EQ(sim.players()[1].holding, -1);
    EXPECT_EQ(sim.last_results()[1], hns::ActionResult::LockRefused);
}

TEST(HnsMechanics, PushIntoAWallIsRefusedAndBreaksTheGrab) {
    hns::Sim sim = started_certification();
    // box4 spans y 312..375; the south border wall starts at y 384. Pull it down from above.
    sim.place_player(2, 176, 305);
    std::vector<hns::Input> cur(6), prev(6);
    // Face south (aim 192): B turns +6 a tick from 0 → 192 after 32 ticks.
    for (int i = 0; i < 32; ++i) tick(sim, 2, hns::kBtnB, hns::kBtnB);
    ASSERT_EQ(sim.players()[2].aimBrads, 192);
    tick(sim, 2, hns::kBtnC, 0);
    ASSERT_EQ(sim.players()[2].holding, 3);
    int lastY = sim.objects()[3].y;
    bool dropped = false;
    // The break counter adds one per refused axis step (every ~3 ticks here), never per tick.
    for (int i = 0; i < 200 && !dropped; ++i) {
        tick(sim, 2, hns::kBtnC | hns::kBtnDown, hns::kBtnC | hns::kBtnDown);
        lastY = sim.objects()[3].y;
        dropped = sim.players()[2].holding < 0;
    }
    EXPECT_EQ(lastY + 64, 384);  // flush against the wall, never inside it
    EXPECT_TRUE(dropped);
    EXPECT_EQ(sim.last_results()[2], hns::ActionResult::PushStuck);
}

TEST(HnsMechanics, ShadowcastHidesBehindWallsAndFurniture) {
    hns::Sim sim = started_certification();
    run_to_hunt(sim);
    // Seeker 1 at (300,100) facing east into the north hall; hider 0 behind the wall at x 472.
    sim.place_player(2, 40, 360);
    sim.place_player(4, 40, 40);
    std::vector<hns::Input> zero(6);
    // Aim seeker 1 east: 21 ticks of Select (−6 each) turn 128 to 2.
    std::vector<hns::Input> sel(6);
    sel[1].mask = hns::kBtnSelect;
    for (int i = 0; i < 21; ++i) sim.step(sel, sel);
    sim.step(zero, sel);
    EXPECT_EQ(sim.players()[1].aimBrads, 2);
    // The wall x 472..487 runs y 16..75 and 132..263; y 76..131 is the d2 door gap.
    sim.place_player(1, 420, 104);
    sim.place_player(0, 520, 104);
    sim.step(zero, zero);
    EXPECT_TRUE(sim.player_visible_to(1, 0));  // straight ahead through the door
    sim.place_player(1, 420, 180);
    sim.place_player(0, 520, 180);
    sim.step(zero, zero);
    EXPECT_FALSE(sim.player_visible_to(1, 0));  // straight ahead, behind the wall
    // Behind furniture: box3 (368,296) 64x64 between a seeker and a hider in the south hall.
    sim.place_player(1, 340, 330);
    sim.place_player(0, 455, 330);
    sim.step(zero, zero);
    EXPECT_FALSE(sim.player_visible_to(1, 0));
    sim.place_player(0, 350, 365);  // in the open, within the 48 px bubble
    sim.step(zero, zero);
    EXPECT_TRUE(sim.player_visible_to(1, 0));
}

TEST(HnsMechanics, SpottedLatchCountsSeatSeenTicks) {
    hns::Sim sim = started_certification();
    run_to_hunt(sim);
    std::vector<hns::Input> zero(6);
    const int seen0 = sim.players()[0].seatSeenTicks;
    sim.place_player(1, 60, 50);  // within the 48 px bubble of hider 0, on open floor
    sim.place_player(0, 80, 50);
    sim.step(zero, zero);
    EXPECT_EQ(sim.players()[0].seatSeenTicks, seen0 + 1);
    EXPECT_EQ(sim.seen_ticks(), 1);
    sim.step(zero, zero);
    EXPECT_EQ(sim.players()[0].seatSeenTicks, seen0 + 2);
    sim.place_player(0, 40, 360);
    sim.place_player(1, 600, 40);
    sim.step(zero, zero);
    EXPECT_EQ(sim.players()[0].seatSeenTicks, seen0 + 2);
    EXPECT_EQ(sim.hidden_ticks() + sim.seen_ticks(), sim.hunt_ticks_played());
}

TEST(HnsMechanics, ShoutsSanitiseCooldownExpireAndCarryTheirPosition) {
    hns::Sim sim = started_certification();
    EXPECT_TRUE(sim.apply_shout(0, "  hello there, world  "));
    ASSERT_EQ(sim.shouts().size(), 1u);
    EXPECT_EQ(sim.shouts()[0].text, "hello th");  // ten characters kept, then trimmed
    EXPECT_EQ(sim.shouts()[0].address, "Cog1");
    EXPECT_EQ(sim.shouts()[0].x, sim.players()[0].x);
    EXPECT_FALSE(sim.apply_shout(0, "again"));  // cooldown 24 ticks
    std::vector<hns::Input> zero(6);
    for (int i = 0; i < 24; ++i) sim.step(zero, zero);
    EXPECT_TRUE(sim.apply_shout(0, "again"));
    EXPECT_EQ(sim.shouts().size(), 1u);  // replaces the cog's earlier shout
    for (int i = 0; i < 72; ++i) sim.step(zero, zero);
    EXPECT_TRUE(sim.shouts().empty());
    EXPECT_FALSE(sim.apply_shout(0, "   "));
    EXPECT_EQ(hns::kShoutRange, 144);
}

TEST(HnsMechanics, KeepClearStopsAHeldObjectNearASeekerPad) {
    hns::Sim sim = started_certification();
    // box3 (368,296) sits 96+ px below seeker pad s1 (368,152); pushing it north is refused
    // before its top edge comes within 96 px of the pad.
    sim.place_player(4, 400, 370);
    for (int i = 0; i < 11; ++i) tick(sim, 4, hns::kBtnB, hns::kBtnB);  // aim 66 ≈ north
    tick(sim, 4, hns::kBtnSelect, hns::kBtnB);                           // 60
    tick(sim, 4, hns::kBtnB, hns::kBtnSelect);                           // 66
    ASSERT_GE(sim.players()[4].aimBrads, 60);
    tick(sim, 4, hns::kBtnC, 0);
    ASSERT_EQ(sim.players()[4].holding, 2) << sim.players()[4].aimBrads;
    for (int i = 0; i < 80 && sim.players()[4].holding == 2; ++i)
        tick(sim, 4, hns::kBtnC | hns::kBtnUp, hns::kBtnC | hns::kBtnUp);
    const auto& box = sim.objects()[2];
    const int dy = 152 < box.y ? box.y - 152 : 0;
    EXPECT_GE(dy * dy, 96 * 96);
    EXPECT_LT(box.y, 296);  // it did move north
}

TEST(HnsMechanics, ObservationCountersFollowTheClock) {
    hns::Sim sim = started_certification();
    EXPECT_EQ(sim.phase_ticks_left(), 180);  // prep 180 ticks, game started this tick
    EXPECT_FALSE(sim.exposed_now());
    run_to_hunt(sim);
    EXPECT_EQ(sim.phase_ticks_left(), 450 - 180);
    std::vector<hns::Input> zero(6);
    sim.place_player(1, 60, 50);
    sim.place_player(0, 80, 50);
    sim.step(zero, zero);
    EXPECT_TRUE(sim.exposed_now());
    EXPECT_EQ(sim.current_margin(), (sim.hidden_ticks() - sim.seen_ticks()) * 1000 / sim.hunt_ticks_played());
}

TEST(HnsMechanics, ShoutsAreHeardWithin144PxThroughWallsByBothTeams) {
    hns::Sim sim = started_certification();
    sim.place_player(0, 100, 100);
    ASSERT_TRUE(sim.apply_shout(0, "here"));
    const hns::Shout shout = sim.shouts()[0];
    sim.place_player(1, 100 + 144, 100);  // exactly 144 px, a seeker: heard
    EXPECT_TRUE(sim.shout_audible_to(1, shout));
    sim.place_player(1, 100 + 145, 100);
    EXPECT_FALSE(sim.shout_audible_to(1, shout));
    sim.place_player(2, 130, 240);  // 143 px away, behind the wall at y 192..207: still heard
    EXPECT_TRUE(sim.shout_audible_to(2, shout));
    EXPECT_FALSE(sim.shout_audible_to(9, shout));
}
