// The player (POV) stream on a real match (spec §4.1): header bytes, the seat's own cog and
// nothing else, the derived lobby bytes, dedup after a move, the aim label.
#include <gtest/gtest.h>

#include "render/hns/ids.hpp"
#include "render/hns/scene.hpp"
#include "render_test_support.hpp"

namespace {

using namespace render_test;
namespace rh = hschool::render::hns;

TEST(PlayerStream, FirstFrameHeaderBytesAreThoseOfTheSpec) {
    hns::Sim sim = make_sim("warren", 0);
    join_six(sim);
    rh::Stream stream;
    const auto frame = stream.next(rh::player_scene(sim, 0));
    EXPECT_EQ(hex(frame.bytes, 0, 11), "04 06 00 00 01 05 00 D0 02 90 01");
}

TEST(PlayerStream, CarriesOnlyTheSeatsOwnCogWithTheDerivedLobbyBytes) {
    hns::Sim sim = make_sim("warren", 0);
    join_six(sim);
    rh::Stream seat0, seat1;
    const auto f0 = seat0.next(rh::player_scene(sim, 0));
    const auto f1 = seat1.next(rh::player_scene(sim, 1));
    const auto m0 = messages(f0);
    ASSERT_EQ(m0.size(), 5u);  // header (3), own cog sprite, own cog object
    const auto sprite0 = std::get<sv::DefineSprite>(m0[3]);
    EXPECT_EQ(sprite0.sprite_id, 100);
    EXPECT_EQ(sprite0.width, 72);
    EXPECT_EQ(sprite0.height, 72);
    EXPECT_EQ(sprite0.label, "cog HIDER own aim " + std::to_string(sim.players()[0].aimBrads));
    // The object is the last 12 bytes of each frame (§4.1 derived lobby bytes, warren).
    EXPECT_EQ(hex(f0.bytes, f0.bytes.size() - 12), "02 E8 03 2C 00 2C 00 50 00 00 64 00");
    EXPECT_EQ(hex(f1.bytes, f1.bytes.size() - 12), "02 E9 03 4C 01 74 00 98 00 00 7C 00");
    EXPECT_EQ(std::get<sv::DefineSprite>(messages(f1)[3]).label, "cog SEEKER own aim 128");
}

TEST(PlayerStream, AnUnchangedTickIsEmptyAndAMoveSendsOnlyThePlacement) {
    hns::Sim sim = started_certification();
    rh::Stream stream;
    stream.next(rh::player_scene(sim, 2));
    EXPECT_TRUE(stream.next(rh::player_scene(sim, 2)).bytes.empty());
    const int aim = sim.players()[2].aimBrads;
    sim.place_player(2, 130, 340);
    const auto moved = messages(stream.next(rh::player_scene(sim, 2)));
    ASSERT_EQ(sim.players()[2].aimBrads, aim);
    ASSERT_EQ(moved.size(), 1u);
    const auto object = std::get<sv::DefineObject>(moved[0]);
    EXPECT_EQ(object.object_id, 1000 + sim.players()[2].joinOrder);
    EXPECT_EQ(object.x, 130 - 36);
    EXPECT_EQ(object.y, 340 - 36);
    EXPECT_EQ(object.z, 340);
}

TEST(PlayerStream, TurningTheAimResendsTheCogSpriteWithItsNewLabel) {
    hns::Sim sim = started_certification();
    rh::Stream stream;
    stream.next(rh::player_scene(sim, 0));
    std::vector<std::uint8_t> masks(6, 0);
    masks[0] = hns::kBtnB;  // counter-clockwise by aimTurnRate
    step(sim, masks, masks);
    const auto sprites = only<sv::DefineSprite>(messages(stream.next(rh::player_scene(sim, 0))));
    ASSERT_EQ(sprites.size(), 1u);
    EXPECT_EQ(sprites[0].label, rh::cog_label(sim.players()[0]));
    EXPECT_EQ(sprites[0].sprite_id, rh::cog_sprite_id(0, rh::cog_rot(sim.players()[0].aimBrads)));
}

TEST(PlayerStream, AnIndexThatIsNoPlayerDrawsOnlyTheHeader) {
    hns::Sim sim = make_sim("warren", 0);
    rh::Stream stream;
    EXPECT_EQ(messages(stream.next(rh::player_scene(sim, 3))).size(), 3u);
}

TEST(PlayerStream, CogRotationIsTheReferencesRounding) {
    EXPECT_EQ(rh::cog_rot(0), 0);
    EXPECT_EQ(rh::cog_rot(7), 0);
    EXPECT_EQ(rh::cog_rot(8), 1);
    EXPECT_EQ(rh::cog_rot(128), 8);
    EXPECT_EQ(rh::cog_rot(248), 0);
    EXPECT_EQ(rh::cog_sprite_id(1, 8), 124);
}

}  // namespace
