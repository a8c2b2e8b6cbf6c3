// The object deal, keep-clear, pads and spawn aims (§3.5, §3.12, §3.17) against the reference's
// deal tables in vectors/lobby_and_deals.json.
#include <gtest/gtest.h>

#include "hns_test_support.hpp"

using namespace hns_test;

namespace {

const char* kind_name(hns::ObjectKind k) {
    return k == hns::ObjectKind::Crate ? "crate" : k == hns::ObjectKind::Panel ? "panel" : "ramp";
}

// Runs a lobby with six joins to the final tick, recording game starts and pad orders.
void run_to_end(hns::Sim& sim) {
    const std::vector<hns::Input> zero(6);
    for (int guard = 0; guard < 10000 && !sim.finished(); ++guard) sim.step(zero, zero);
}

}  // namespace

TEST(HnsDeal, EveryReferenceDealMatches) {
    const auto doc = vector_json("lobby_and_deals.json");
    int checked = 0;
    for (const auto& d : doc.at("deals").as_array()) {
        const std::string variant(d.at("variant").as_string());
        const long long seed = d.at("seed").as_int64();
        SCOPED_TRACE(variant + " seed " + std::to_string(seed));
        hns::Sim sim = make_sim(variant, seed);
        EXPECT_EQ(sim.room().name, d.at("room").as_string());
        const auto& objects = d.at("objects").as_array();
        ASSERT_EQ(sim.objects().size(), objects.size());
        for (std::size_t i = 0; i < objects.size(); ++i) {
            const auto& want = objects[i].as_object();
            const hns::GameObject& got = sim.objects()[i];
            EXPECT_EQ(got.id, want.at("id").as_string());
            EXPECT_EQ(kind_name(got.kind), want.at("kind").as_string());
            EXPECT_EQ(got.axis == hns::ObjectAxis::V ? "v" : "h", want.at("axis").as_string());
            EXPECT_EQ(got.x, want.at("x").as_int64());
            EXPECT_EQ(got.y, want.at("y").as_int64());
            EXPECT_EQ(got.w, want.at("w").as_int64());
            EXPECT_EQ(got.h, want.at("h").as_int64());
        }
        join_six(sim);
        run_to_end(sim);
        const auto& orders = d.at("hiderPadOrders").as_array();
        ASSERT_EQ(sim.hider_pad_orders().size(), orders.size());
        for (std::size_t g = 0; g < orders.size(); ++g)
            for (int k = 0; k < 3; ++k) EXPECT_EQ(sim.hider_pad_orders()[g][k], orders[g].as_array()[k].as_int64());
        const auto& starts = d.at("gameStartTicks").as_array();
        ASSERT_EQ(sim.game_start_ticks().size(), starts.size());
        for (std::size_t g = 0; g < starts.size(); ++g) EXPECT_EQ(sim.game_start_ticks()[g], starts[g].as_int64());
        EXPECT_EQ(sim.tick_count(), d.at("finalTick").as_int64());
        ++checked;
    }
    EXPECT_EQ(checked, 6);
}

TEST(HnsDeal, LongHallSeed42PlacesOnlyTwoOfThreePanels) {
    hns::Sim sim = make_sim("long-hall", 42);
    int panels = 0;
    for (const auto& o : sim.objects()) panels += o.kind == hns::ObjectKind::Panel ? 1 : 0;
    EXPECT_EQ(panels, 2);
}

TEST(HnsDeal, NoObjectWithinKeepClearOfASeekerPad) {
    for (long long seed = 0; seed < 12; ++seed) {
        hns::Sim sim = make_sim("warren", seed);
        for (const auto& pad : sim.room().pads(hns::AnchorTeam::Seekers))
            for (const auto& o : sim.objects()) {
                const int dx = pad.x < o.x ? o.x - pad.x : (pad.x >= o.x + o.w ? pad.x - (o.x + o.w - 1) : 0);
                const int dy = pad.y < o.y ? o.y - pad.y : (pad.y >= o.y + o.h ? pad.y - (o.y + o.h - 1) : 0);
                EXPECT_GE(dx * dx + dy * dy, 96 * 96) << "seed " << seed << " " << o.id;
            }
    }
}

TEST(HnsDeal, JoinPlacesCogsOnTheirPadsWithSpawnAims) {
    hns::Sim sim = make_sim("warren", 42);
    join_six(sim);
    const auto hider = sim.room().pads(hns::AnchorTeam::Hiders);
    const auto seeker = sim.room().pads(hns::AnchorTeam::Seekers);
    for (int s = 0; s < 6; ++s) {
        const auto& p = sim.players()[s];
        const auto& pad = s % 2 == 0 ? hider[s / 2] : seeker[s / 2];
        EXPECT_EQ(p.x, pad.x);
        EXPECT_EQ(p.y, pad.y);
        EXPECT_EQ(p.aimBrads, s % 2 == 0 ? 0 : 128);
        EXPECT_EQ(p.color, s % 2 == 0 ? 3 : 13);
        EXPECT_FALSE(p.flipH);
    }
}
