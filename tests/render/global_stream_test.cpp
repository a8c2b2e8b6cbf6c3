// The global (spectator) stream on a real match (spec §4.2): 2× header, map bands first and once,
// the certification deal's placements and labels, cones, padlocks appearing and vanishing, and
// repeating sprites compressed once and shared.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>

#include "render/hns/ids.hpp"
#include "render/hns/scene.hpp"
#include "render_test_support.hpp"

namespace {

using namespace render_test;
namespace rh = hschool::render::hns;

// What a fresh global stream's first frame of `sim` defines, by id.
Definitions first_global_frame(const hns::Sim& sim) {
    rh::Stream stream;
    return definitions(messages(stream.next(rh::global_scene(sim))));
}

TEST(GlobalStream, FirstFrameIsTheHeaderThenBandZeroAndItsObject) {
    hns::Sim sim = started_certification();
    rh::Stream stream;
    const auto frame = stream.next(rh::global_scene(sim));
    EXPECT_EQ(hex(frame.bytes, 0, 11), "04 06 00 00 01 05 00 A0 05 20 03");
    EXPECT_EQ(hex(frame.bytes, 11, 7), "01 1E 00 A0 05 60 00");
    const auto all = messages(frame);
    const auto band0 = std::get<sv::DefineSprite>(all[3]);
    EXPECT_EQ(band0.label, "map band 0");
    EXPECT_EQ(std::get<sv::DefineObject>(all[4]), (sv::DefineObject{40, 0, 0, -32768, 0, 30}));
    EXPECT_EQ(hex(frame.bytes, frame.message_ends[3], 12), "02 28 00 00 00 00 00 00 80 00 1E 00");
    // Nine bands: eight of 1440×96 and the last of 1440×32.
    const auto sprites = only<sv::DefineSprite>(all);
    for (int b = 0; b < 9; ++b) {
        EXPECT_EQ(sprites[static_cast<std::size_t>(b)].sprite_id, 30 + b);
        EXPECT_EQ(sprites[static_cast<std::size_t>(b)].width, 1440);
        EXPECT_EQ(sprites[static_cast<std::size_t>(b)].height, b == 8 ? 32 : 96);
    }
}

TEST(GlobalStream, TheCertificationDealIsPlacedAndLabelledAsTheSpecDerives) {
    hns::Sim sim = started_certification();
    auto [objects, sprites] = first_global_frame(sim);
    const struct { int id, x, y, z; } expected[] = {{2200, 1056, 80, 40}, {2201, 288, 464, 232}, {2202, 736, 592, 296},
                                                    {2203, 288, 624, 312}, {2204, 120, 184, 92}, {2205, 568, 472, 236},
                                                    {2206, 120, 448, 224}, {2207, 272, 264, 132}};
    for (const auto& e : expected) {
        ASSERT_TRUE(objects.count(e.id)) << e.id;
        EXPECT_EQ(objects[e.id].x, e.x) << e.id;
        EXPECT_EQ(objects[e.id].y, e.y) << e.id;
        EXPECT_EQ(objects[e.id].z, e.z) << e.id;
        EXPECT_EQ(objects[e.id].sprite_id, e.id - 200) << e.id;
    }
    EXPECT_EQ(sprites[2000].label, "crate box1");
    EXPECT_EQ(sprites[2004].label, "panel pan1");
    EXPECT_EQ(sprites[2006].label, "ramp ramp1");
}

TEST(GlobalStream, CogsAndConesCarryTheirIdsSizesAndLabels) {
    hns::Sim sim = started_certification();
    const auto [objects, sprites] = first_global_frame(sim);
    for (int i = 0; i < 6; ++i) {
        const auto& p = sim.players()[static_cast<std::size_t>(i)];
        SCOPED_TRACE(i);
        const auto& cog = objects.at(1000 + p.joinOrder);
        EXPECT_EQ(cog.x, (p.x - 36) * 2);
        EXPECT_EQ(cog.y, (p.y - 36) * 2);
        EXPECT_EQ(cog.z, p.y + 2);
        EXPECT_EQ(sprites.at(cog.sprite_id).width, 144);
        const bool has_cone = objects.count(2500 + p.joinOrder) > 0;
        EXPECT_EQ(has_cone, p.alive && !sim.frozen_seeker(i));
        if (!has_cone) continue;
        const auto& cone = objects.at(2500 + p.joinOrder);
        EXPECT_EQ(cone.x, (p.x - 341) * 2);
        EXPECT_EQ(cone.z, -900);
        const auto& cone_sprite = sprites.at(2400 + p.joinOrder);
        EXPECT_EQ(cone_sprite.width, 1364);
        EXPECT_EQ(cone_sprite.label, "vision cone " + std::to_string(p.joinOrder) + " aim " + std::to_string(p.aimBrads) +
                                         " deg 35 range 340 on");
    }
}

TEST(GlobalStream, LaterFramesResendPlacementsButNotBandsAndDeleteAVanishedPadlock) {
    hns::Sim sim = started_certification();
    rh::Stream stream;
    stream.next(rh::global_scene(sim));
    sim.place_player(2, 130, 340);  // facing box4 (index 3)
    std::vector<std::uint8_t> lock(6, 0);
    lock[2] = hns::kBtnA;
    step(sim, lock);
    ASSERT_EQ(sim.objects()[3].lockedBy, hns::LockOwner::Hiders);
    const auto locked = messages(stream.next(rh::global_scene(sim)));
    for (const auto& o : only<sv::DefineObject>(locked)) EXPECT_FALSE(o.object_id >= 40 && o.object_id < 49);
    std::map<int, std::string> labels;
    for (const auto& s : only<sv::DefineSprite>(locked)) labels[s.sprite_id] = s.label;
    EXPECT_EQ(labels[2003], "locked crate box4");
    EXPECT_EQ(labels[2300], "padlock");
    bool padlock_placed = false;
    for (const auto& o : only<sv::DefineObject>(locked))
        if (o.object_id == 2323) {
            padlock_placed = true;
            EXPECT_EQ(o.x, (144 + 32 - 7) * 2);
            EXPECT_EQ(o.z, 312 + 1);
        }
    EXPECT_TRUE(padlock_placed);
    // Unlock after the cooldown: the padlock's object is deleted.
    for (int t = 0; t < 30; ++t) step(sim);
    step(sim, lock);
    ASSERT_EQ(sim.objects()[3].lockedBy, hns::LockOwner::None);
    const auto unlocked = messages(stream.next(rh::global_scene(sim)));
    const auto deletes = only<sv::DeleteObject>(unlocked);
    ASSERT_EQ(deletes.size(), 1u);
    EXPECT_EQ(deletes[0].object_id, 2323);
    EXPECT_TRUE(std::holds_alternative<sv::DeleteObject>(unlocked.back()));  // deletes come last
}

TEST(GlobalStream, AHolderGetsATetherAndAShoutGetsABubbleBothResentEveryFrame) {
    hns::Sim sim = started_certification();
    sim.place_player(2, 130, 340);  // facing box4 (index 3) at (144,312) 64x64
    std::vector<std::uint8_t> grab(6, 0);
    grab[2] = hns::kBtnC;
    step(sim, grab);
    ASSERT_EQ(sim.players()[2].holding, 3);
    ASSERT_TRUE(sim.apply_shout(2, "here"));
    rh::Stream stream;
    stream.next(rh::global_scene(sim));
    const auto& p = sim.players()[2];
    const int slot = p.joinOrder, dx = 144 + 32 - p.x, dy = 312 + 32 - p.y;
    const auto again = messages(stream.next(rh::global_scene(sim)));
    std::map<int, sv::DefineSprite> sprites;
    for (const auto& s : only<sv::DefineSprite>(again)) sprites[s.sprite_id] = s;
    ASSERT_TRUE(sprites.count(2600 + slot));
    EXPECT_EQ(sprites[2600 + slot].label,
              "carry tether " + std::to_string(slot) + " " + std::to_string(dx) + "," + std::to_string(dy));
    EXPECT_EQ(sprites[2600 + slot].width, (std::abs(dx) + 2) * 2);
    ASSERT_TRUE(sprites.count(2700));
    EXPECT_EQ(sprites[2700].label, "shout bubble here");
    std::map<int, sv::DefineObject> objects;
    for (const auto& o : only<sv::DefineObject>(again)) objects[o.object_id] = o;
    EXPECT_EQ(objects.at(2650 + slot).x, (std::min(p.x, 144 + 32) - 1) * 2);
    EXPECT_EQ(objects.at(2650 + slot).z, p.y + 1);
    EXPECT_EQ(objects.at(2760).z, sim.shouts()[0].y + 400);
    // Nothing else changed between the two frames: only the always-sent sprites come again.
    for (const auto& [id, s] : sprites) EXPECT_TRUE(id == 2600 + slot || id == 2700) << id << " " << s.label;
}

TEST(GlobalStream, AHiderSeenByASeekerWearsTheSpottedRingUntilOutOfSight) {
    hns::Sim sim = started_certification();
    while (sim.match_phase() != hns::MatchPhase::Hunt) step(sim);
    sim.place_player(1, 60, 50);  // a seeker within the 48 px bubble of hider 0
    sim.place_player(0, 80, 50);
    step(sim);
    ASSERT_TRUE(sim.player_visible_to(1, 0));
    rh::Stream stream;
    const auto seen = messages(stream.next(rh::global_scene(sim)));
    const int slot = sim.players()[0].joinOrder;
    std::map<int, sv::DefineObject> objects;
    for (const auto& o : only<sv::DefineObject>(seen)) objects[o.object_id] = o;
    ASSERT_TRUE(objects.count(2350 + slot));
    EXPECT_EQ(objects[2350 + slot].x, (80 - 21) * 2);
    EXPECT_EQ(objects[2350 + slot].z, 50 + 3);
    EXPECT_EQ(objects[2350 + slot].sprite_id, 2340);
    bool ring_sprite = false;
    for (const auto& s : only<sv::DefineSprite>(seen)) ring_sprite |= s.sprite_id == 2340 && s.label == "spotted ring" && s.width == 84;
    EXPECT_TRUE(ring_sprite);
    sim.place_player(0, 40, 360);
    sim.place_player(1, 600, 40);
    step(sim);
    bool deleted = false;
    for (const auto& d : only<sv::DeleteObject>(messages(stream.next(rh::global_scene(sim))))) deleted |= d.object_id == 2350 + slot;
    EXPECT_TRUE(deleted);
}

TEST(GlobalStream, RepeatingSpritesAreCompressedOnceAndShared) {
    hns::Sim sim = started_certification();
    const auto first = rh::global_scene(sim);
    const std::size_t compressed = rh::blocks_compressed();
    const auto second = rh::global_scene(sim);
    EXPECT_EQ(rh::blocks_compressed(), compressed);
    ASSERT_EQ(first.items.size(), second.items.size());
    for (std::size_t i = 0; i < first.items.size(); ++i)
        if (first.items[i].sprite && !first.items[i].sprite->always_send) {
            EXPECT_EQ(first.items[i].sprite->block.get(), second.items[i].sprite->block.get());
        }
    // Another match in the same room shares the same cog blocks.
    hns::Sim other = started_certification();
    const auto mine = rh::player_scene(sim, 0), theirs = rh::player_scene(other, 0);
    EXPECT_EQ(mine.items[0].sprite->block.get(), theirs.items[0].sprite->block.get());
}

}  // namespace
