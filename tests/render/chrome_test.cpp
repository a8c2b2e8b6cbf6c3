// The replay chrome sprite 4090 (spec §4.5): its JSON label read back with Boost.JSON against a
// real sim, our replay keys, the endcard block once a game is filed, and the sprite on a stream.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "render/hns/chrome.hpp"
#include "render/hns/scene.hpp"
#include "render_test_support.hpp"

namespace {

using namespace render_test;
namespace rh = hschool::render::hns;
namespace json = boost::json;

json::object chrome(const hns::Sim& sim, const rh::ChromeExtras& extras = {}) {
    return json::parse(rh::chrome_label(sim, extras)).as_object();
}

TEST(Chrome, TheBoardStateKeysMatchTheSim) {
    hns::Sim sim = started_certification();
    for (int i = 0; i < 100; ++i) step(sim);  // two turns into prep (90-tick turns)
    const auto state = chrome(sim);
    for (const char* key : {"t", "mt", "ph", "mp", "game", "games", "turn", "turns", "phaseLeft", "room", "hidden", "seen",
                            "margin", "sealed", "objects", "teams", "roster", "events", "paused", "speed", "end", "mismatch"})
        EXPECT_TRUE(state.contains(key)) << key;
    EXPECT_FALSE(state.contains("over"));  // no game filed yet
    EXPECT_EQ(state.at("t").as_int64(), sim.tick_count());
    EXPECT_EQ(state.at("mt").as_int64(), sim.config().maxTicks() * 2);
    EXPECT_EQ(state.at("ph").as_string(), "playing");
    EXPECT_EQ(state.at("mp").as_string(), "prep");
    EXPECT_EQ(state.at("game").as_int64(), 1);
    EXPECT_EQ(state.at("games").as_int64(), 2);
    EXPECT_EQ(state.at("turn").as_int64(), sim.game_tick() / 90 + 1);
    EXPECT_EQ(state.at("turns").as_int64(), 5);
    EXPECT_EQ(state.at("phaseLeft").as_int64(), sim.phase_ticks_left() / 24);
    EXPECT_EQ(state.at("room").as_string(), sim.room().name);
    EXPECT_EQ(state.at("hidden").as_int64(), sim.hidden_ticks());
    EXPECT_EQ(state.at("seen").as_int64(), sim.seen_ticks());
    EXPECT_EQ(state.at("margin").as_int64(), sim.current_margin());
    EXPECT_EQ(state.at("events").as_array().size(), 0u);
    // Objects: id, kind, box, lock, held.
    const auto& objects = state.at("objects").as_array();
    ASSERT_EQ(objects.size(), sim.objects().size());
    const auto& box1 = objects[0].as_object();
    EXPECT_EQ(box1.at("id").as_string(), "box1");
    EXPECT_EQ(box1.at("kind").as_string(), "crate");
    EXPECT_EQ(box1.at("box"), (json::array{528, 40, sim.objects()[0].w, sim.objects()[0].h}));
    EXPECT_EQ(box1.at("locked").as_string(), "none");
    EXPECT_FALSE(box1.at("held").as_bool());
    EXPECT_EQ(objects[4].at("kind").as_string(), "panel");
    EXPECT_EQ(objects[6].at("kind").as_string(), "ramp");
    // Teams by engine colour, roles by job.
    const auto& teams = state.at("teams").as_object();
    EXPECT_EQ(teams.at("red").at("role").as_string(), "hiders");
    EXPECT_EQ(teams.at("blue").at("role").as_string(), "seekers");
    EXPECT_EQ(teams.at("red").at("policies").as_array().size(), 3u);
    // One plate per seat.
    const auto& roster = state.at("roster").as_array();
    ASSERT_EQ(roster.size(), 6u);
    for (int s = 0; s < 6; ++s) {
        SCOPED_TRACE(s);
        const auto& plate = roster[static_cast<std::size_t>(s)].as_object();
        EXPECT_EQ(plate.at("s").as_int64(), s);
        EXPECT_EQ(plate.at("team").as_string(), s % 2 == 0 ? "red" : "blue");
        EXPECT_EQ(plate.at("alias").as_string(), sim.alias(s));
        EXPECT_EQ(plate.at("name").as_string(), "Cog" + std::to_string(s + 1));
        EXPECT_EQ(plate.at("kind").as_string(), "scripted");
        EXPECT_EQ(plate.at("holding").as_string(), "");
    }
}

TEST(Chrome, OurReplayKeysCarryTheTransportAndTheMismatch) {
    hns::Sim sim = started_certification();
    auto state = chrome(sim);
    EXPECT_FALSE(state.at("paused").as_bool());
    EXPECT_EQ(state.at("speed").as_int64(), 1);
    EXPECT_TRUE(state.at("mismatch").is_null());
    rh::ChromeExtras extras;
    extras.paused = true;
    extras.speed = 4;
    extras.end = 2230;
    extras.mismatch = rh::ChromeMismatch{17, 0x0123456789abcdefULL, 0xfULL};
    extras.events.push_back(json::object{{"k", "phase"}, {"phase", "playing"}, {"tick", 1}});
    state = chrome(sim, extras);
    EXPECT_TRUE(state.at("paused").as_bool());
    EXPECT_EQ(state.at("speed").as_int64(), 4);
    EXPECT_EQ(state.at("end").as_int64(), 2230);
    const auto& mismatch = state.at("mismatch").as_object();
    EXPECT_EQ(mismatch.at("tick").as_int64(), 17);
    EXPECT_EQ(mismatch.at("expected").as_string(), "0123456789abcdef");
    EXPECT_EQ(mismatch.at("got").as_string(), "000000000000000f");
    ASSERT_EQ(state.at("events").as_array().size(), 1u);
    EXPECT_EQ(state.at("events").as_array()[0].at("k").as_string(), "phase");
}

TEST(Chrome, LocksHoldsAndTheHuntShowInTheState) {
    hns::Sim sim = started_certification();
    lock_box4_by_slot2(sim);
    ASSERT_EQ(sim.objects()[3].lockedBy, hns::LockOwner::Hiders);
    auto state = chrome(sim);
    EXPECT_EQ(state.at("objects").as_array()[3].at("locked").as_string(), "hiders");
    EXPECT_EQ(state.at("teams").at("red").at("locked").as_int64(), 1);
    EXPECT_EQ(state.at("teams").at("blue").at("locked").as_int64(), 0);
    EXPECT_EQ(state.at("roster").as_array()[2].at("locks").as_int64(), sim.players()[2].locks);
    while (sim.match_phase() != hns::MatchPhase::Hunt) step(sim);
    for (int i = 0; i < 30; ++i) step(sim);
    state = chrome(sim);
    EXPECT_EQ(state.at("mp").as_string(), "hunt");
    EXPECT_EQ(state.at("hidden").as_int64() + state.at("seen").as_int64(), sim.hunt_ticks_played());
    for (int s = 0; s < 6; ++s) {
        const auto& p = sim.players()[static_cast<std::size_t>(s)];
        const auto& plate = state.at("roster").as_array()[static_cast<std::size_t>(s)];
        EXPECT_EQ(plate.at("seen").as_int64(), p.seatSeenTicks);
        EXPECT_EQ(plate.at("unseen").as_int64(), std::max(0, sim.hunt_ticks_played() - p.seatSeenTicks));
    }
}

TEST(Chrome, TheEndcardAppearsOnceAGameIsFiledAndSaysDoneAtTheEnd) {
    hns::Sim sim = started_certification();
    while (sim.game_margins().empty()) step(sim);
    auto state = chrome(sim);
    ASSERT_TRUE(state.contains("over"));
    auto over = state.at("over").as_object();
    EXPECT_EQ(over.at("gameMargins"), (json::array{sim.game_margins()[0]}));
    EXPECT_FALSE(over.at("done").as_bool());
    EXPECT_EQ(over.at("games").as_int64(), 2);
    EXPECT_EQ(over.at("scores").as_array().size(), 6u);
    while (!sim.finished()) step(sim);
    state = chrome(sim);
    EXPECT_EQ(state.at("ph").as_string(), "gameover");
    over = state.at("over").as_object();
    EXPECT_TRUE(over.at("done").as_bool());
    EXPECT_EQ(over.at("gameMargins").as_array().size(), 2u);
    EXPECT_EQ(over.at("reason").as_string(), "complete");
    EXPECT_EQ(over.at("endRule").as_string(), "full_time");
    double sum = 0;
    for (const auto& s : over.at("scores").as_array()) sum += s.to_number<double>();
    EXPECT_NEAR(sum, 0.0, 1e-9);  // zero-sum across the six seats
}

TEST(Chrome, TheSpriteRidesTheGlobalStreamEveryFrameWithNoObject) {
    hns::Sim sim = started_certification();
    rh::Stream stream;
    for (int frame = 0; frame < 3; ++frame) {
        SCOPED_TRACE(frame);
        rh::Scene scene = rh::global_scene(sim);
        const std::string label = rh::chrome_label(sim, {});
        scene.items.push_back(rh::chrome_item(label));
        const auto all = messages(stream.next(scene));
        int chromes = 0;
        for (const auto& s : only<sv::DefineSprite>(all)) {
            if (s.sprite_id != 4090) continue;
            ++chromes;
            EXPECT_EQ(s.width, 1);
            EXPECT_EQ(s.height, 1);
            EXPECT_EQ(s.label, label);
            const auto pixels = sv::decompress_rgba(s.pixels, 1, 1);
            ASSERT_TRUE(pixels.ok());
            EXPECT_EQ(*pixels, (Bytes{0, 0, 0, 0}));
        }
        EXPECT_EQ(chromes, 1);
        for (const auto& o : only<sv::DefineObject>(all)) EXPECT_NE(o.sprite_id, 4090);
        for (const auto& d : only<sv::DeleteObject>(all)) ADD_FAILURE() << "delete " << d.object_id;
        step(sim);
    }
}

}  // namespace
