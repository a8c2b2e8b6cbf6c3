// A manual seat's fogged stream (our extension of §4.1 with the §4.2 families at 1×): the room and
// every object, teammates always, enemies only where the seat's own fog shows them, vanished
// enemies deleted, and never more than Sim::player_visible_to, frame after frame.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "render/hns/ids.hpp"
#include "render/hns/manual_scene.hpp"
#include "render/hns/scene.hpp"
#include "render_test_support.hpp"

namespace {

using namespace render_test;
namespace rh = hschool::render::hns;

// What a client holds after applying frames: placed objects by id, sprites by id.
struct Client {
    std::map<int, sv::DefineObject> objects;
    std::map<int, sv::DefineSprite> sprites;
    std::vector<sv::ServerMessage> last;
    void apply(const rh::Frame& frame) {
        last = messages(frame);
        for (const auto& m : last) {
            if (std::holds_alternative<sv::ClearObjects>(m)) objects.clear();
            if (const auto* s = std::get_if<sv::DefineSprite>(&m)) sprites[s->sprite_id] = *s;
            if (const auto* o = std::get_if<sv::DefineObject>(&m)) {
                EXPECT_TRUE(sprites.count(o->sprite_id)) << "object " << o->object_id << " before its sprite";
                objects[o->object_id] = *o;
            }
            if (const auto* d = std::get_if<sv::DeleteObject>(&m)) {
                EXPECT_TRUE(objects.count(d->object_id)) << "delete of unknown " << d->object_id;
                objects.erase(d->object_id);
            }
        }
    }
    std::set<int> ids() const {
        std::set<int> out;
        for (const auto& [id, o] : objects) out.insert(id);
        return out;
    }
    bool deleted(int id) const {
        for (const auto& d : only<sv::DeleteObject>(last))
            if (d.object_id == id) return true;
        return false;
    }
};

int cog_id(const hns::Sim& sim, int index) { return rh::kCogObjectBase + sim.players()[static_cast<std::size_t>(index)].joinOrder; }

// What the seat may hold, computed from the rules rather than from the scene code.
std::set<int> expected_ids(const hns::Sim& sim, int viewer) {
    std::set<int> out;
    for (int b = 0; b < 9; ++b) out.insert(rh::kMapBandObjectBase + b);
    for (int i = 0; i < static_cast<int>(sim.objects().size()); ++i) {
        out.insert(rh::kObjectObjectBase + i);
        if (sim.objects()[static_cast<std::size_t>(i)].lockedBy != hns::LockOwner::None) out.insert(rh::kPadlockObjectBase + i);
    }
    const auto& me = sim.players()[static_cast<std::size_t>(viewer)];
    const bool sees = me.alive && !sim.frozen_seeker(viewer);
    if (sees) out.insert(rh::kConeObjectBase + me.joinOrder);
    for (int i = 0; i < static_cast<int>(sim.players().size()); ++i) {
        const auto& p = sim.players()[static_cast<std::size_t>(i)];
        if (i == viewer || (p.alive && (p.team == me.team || (sees && sim.player_visible_to(viewer, i)))))
            out.insert(cog_id(sim, i));
    }
    return out;
}

TEST(ManualStream, FirstFrameIsThePlayerHeaderThenTheRoomAtOneScaleOnce) {
    hns::Sim sim = started_certification();
    rh::Stream stream;
    Client client;
    const auto first = stream.next(rh::manual_scene(sim, 0));
    EXPECT_EQ(hex(first.bytes, 0, 11), "04 06 00 00 01 05 00 D0 02 90 01");
    client.apply(first);
    std::map<int, sv::DefineSprite> sprites;
    for (const auto& s : only<sv::DefineSprite>(client.last)) sprites[s.sprite_id] = s;
    for (int b = 0; b < 9; ++b) {
        SCOPED_TRACE(b);
        const auto& band = sprites.at(30 + b);
        EXPECT_EQ(band.label, "map band " + std::to_string(b));
        EXPECT_EQ(band.width, 720);
        EXPECT_EQ(band.height, b == 8 ? 16 : 48);
        EXPECT_EQ(client.objects.at(40 + b), (sv::DefineObject{static_cast<std::uint16_t>(40 + b), 0,
                                                               static_cast<std::int16_t>(48 * b), -32768, 0,
                                                               static_cast<std::uint16_t>(30 + b)}));
    }
    client.apply(stream.next(rh::manual_scene(sim, 0)));
    for (const auto& o : only<sv::DefineObject>(client.last)) EXPECT_FALSE(o.object_id >= 40 && o.object_id < 49);
    for (const auto& s : only<sv::DefineSprite>(client.last)) EXPECT_FALSE(s.sprite_id >= 30 && s.sprite_id < 39);
    EXPECT_EQ(client.ids().count(40), 1u);  // bands are never deleted
}

TEST(ManualStream, ObjectsAndPadlocksCarryTheGlobalIdsAndLabelsAtOneScale) {
    hns::Sim sim = started_certification();
    lock_box4_by_slot2(sim);
    ASSERT_EQ(sim.objects()[3].lockedBy, hns::LockOwner::Hiders);
    for (const int viewer : {0, 1}) {  // a hider, and a seeker frozen in prep: both see the furniture
        SCOPED_TRACE(viewer);
        rh::Stream stream;
        Client client;
        client.apply(stream.next(rh::manual_scene(sim, viewer)));
        for (int i = 0; i < static_cast<int>(sim.objects().size()); ++i) {
            const auto& o = sim.objects()[static_cast<std::size_t>(i)];
            const auto& placed = client.objects.at(2200 + i);
            EXPECT_EQ(placed.x, o.x);
            EXPECT_EQ(placed.y, o.y);
            EXPECT_EQ(placed.z, o.y);
            EXPECT_EQ(placed.sprite_id, 2000 + i);
            EXPECT_EQ(client.sprites.at(2000 + i).label, rh::object_label(o));
            EXPECT_EQ(client.sprites.at(2000 + i).width, o.w);
        }
        EXPECT_EQ(client.sprites.at(2003).label, "locked crate box4");
        const auto& padlock = client.objects.at(2323);
        EXPECT_EQ(padlock.x, 144 + 32 - 7);
        EXPECT_EQ(padlock.z, 312 + 1);
        EXPECT_EQ(client.sprites.at(2300).label, "padlock");
        EXPECT_EQ(client.sprites.at(2300).width, 14);
    }
}

TEST(ManualStream, OwnCogAndConeCarryTheGlobalIdsLabelsAndZAtOneScale) {
    hns::Sim sim = started_certification();
    rh::Stream stream;
    Client client;
    client.apply(stream.next(rh::manual_scene(sim, 0)));
    const auto& p = sim.players()[0];
    const int slot = p.joinOrder;
    const auto& cog = client.objects.at(1000 + slot);
    EXPECT_EQ(cog.x, p.x - 36);
    EXPECT_EQ(cog.y, p.y - 36);
    EXPECT_EQ(cog.z, p.y + 2);
    EXPECT_EQ(cog.sprite_id, rh::cog_sprite_id(0, rh::cog_rot(p.aimBrads)));
    EXPECT_EQ(client.sprites.at(cog.sprite_id).label, "cog HIDER own aim " + std::to_string(p.aimBrads));
    EXPECT_EQ(client.sprites.at(cog.sprite_id).width, 72);
    const auto& cone = client.objects.at(2500 + slot);
    EXPECT_EQ(cone.x, p.x - 341);
    EXPECT_EQ(cone.y, p.y - 341);
    EXPECT_EQ(cone.z, -900);
    EXPECT_EQ(cone.sprite_id, 2400 + slot);
    EXPECT_EQ(client.sprites.at(2400 + slot).width, 682);
    EXPECT_EQ(client.sprites.at(2400 + slot).label,
              "vision cone " + std::to_string(slot) + " aim " + std::to_string(p.aimBrads) + " deg 35 range 340 on");
    // Only its own cone: no teammate's or enemy's torch.
    for (int i = 1; i < 6; ++i) EXPECT_EQ(client.objects.count(2500 + sim.players()[static_cast<std::size_t>(i)].joinOrder), 0u);
    // The own cog comes last, so a sprite shared with a teammate ends up with this seat's label.
    const auto scene = rh::manual_scene(sim, 0);
    EXPECT_EQ(scene.items.back().object.object_id, 1000 + slot);
    EXPECT_TRUE(scene.dedup_placements);
}

TEST(ManualStream, AnEnemyBehindAWallIsAbsentInPlainViewPresentAndDeletedWhenItLeaves) {
    hns::Sim sim = started_certification();
    // Hider 0 looks east along y=50 in the warren's north-west room; the wall x 248..264 spans y 16..76.
    sim.place_player(0, 100, 50);
    sim.place_player(1, 200, 50);  // a seeker in plain view
    step(sim);
    ASSERT_TRUE(sim.player_visible_to(0, 1));
    rh::Stream stream;
    Client client;
    client.apply(stream.next(rh::manual_scene(sim, 0)));
    ASSERT_TRUE(client.objects.count(cog_id(sim, 1)));
    EXPECT_EQ(client.objects.at(cog_id(sim, 1)).x, 200 - 36);
    EXPECT_EQ(client.sprites.at(client.objects.at(cog_id(sim, 1)).sprite_id).label,
              "cog SEEKER own aim " + std::to_string(sim.players()[1].aimBrads));
    // Within sight range and inside the cone, but behind the wall.
    sim.place_player(1, 300, 50);
    step(sim);
    ASSERT_FALSE(sim.player_visible_to(0, 1));
    client.apply(stream.next(rh::manual_scene(sim, 0)));
    EXPECT_TRUE(client.deleted(cog_id(sim, 1)));
    EXPECT_FALSE(client.objects.count(cog_id(sim, 1)));
    // Back in view: placed again although nothing else about it changed.
    sim.place_player(1, 200, 50);
    step(sim);
    ASSERT_TRUE(sim.player_visible_to(0, 1));
    client.apply(stream.next(rh::manual_scene(sim, 0)));
    EXPECT_TRUE(client.objects.count(cog_id(sim, 1)));
}

TEST(ManualStream, TeammatesArePresentEvenOutOfSight) {
    hns::Sim sim = started_certification();
    sim.place_player(0, 100, 50);
    sim.place_player(2, 300, 50);  // a fellow hider behind the wall
    step(sim);
    ASSERT_FALSE(sim.player_visible_to(0, 2));
    rh::Stream stream;
    Client client;
    client.apply(stream.next(rh::manual_scene(sim, 0)));
    for (const int mate : {2, 4}) {
        SCOPED_TRACE(mate);
        const auto& p = sim.players()[static_cast<std::size_t>(mate)];
        ASSERT_TRUE(client.objects.count(cog_id(sim, mate)));
        EXPECT_EQ(client.objects.at(cog_id(sim, mate)).x, p.x - 36);
        EXPECT_EQ(client.objects.at(cog_id(sim, mate)).z, p.y + 2);
    }
}

TEST(ManualStream, AFrozenSeekerSeesNoHiderAndHasNoCone) {
    hns::Sim sim = started_certification();
    ASSERT_EQ(sim.match_phase(), hns::MatchPhase::Prep);
    sim.place_player(1, 100, 50);
    sim.place_player(0, 120, 50);  // right beside it: a frozen seeker's missing fog must not leak it
    step(sim);
    ASSERT_TRUE(sim.frozen_seeker(1));
    rh::Stream stream;
    Client client;
    client.apply(stream.next(rh::manual_scene(sim, 1)));
    for (const int hider : {0, 2, 4}) EXPECT_FALSE(client.objects.count(cog_id(sim, hider))) << hider;
    for (const int mate : {1, 3, 5}) EXPECT_TRUE(client.objects.count(cog_id(sim, mate))) << mate;
    EXPECT_FALSE(client.objects.count(2500 + sim.players()[1].joinOrder));
}

TEST(ManualStream, AnIndexThatIsNoPlayerDrawsNothing) {
    hns::Sim sim = started_certification();
    EXPECT_TRUE(rh::manual_scene(sim, -1).items.empty());
    EXPECT_TRUE(rh::manual_scene(sim, 6).items.empty());
}

// Random play through prep, hunt and into the second game: every frame, what each seat's client
// holds is exactly what its fog allows, for a hider and a seeker.
TEST(ManualStream, TheClientHoldsExactlyWhatTheFogAllowsEveryTick) {
    hns::Sim sim = started_certification();
    std::mt19937 rng(7);
    std::vector<rh::Stream> streams(6);
    std::vector<Client> clients(6);
    std::vector<std::uint8_t> prev(6, 0);
    int enemies_seen = 0, enemies_hidden = 0;
    for (int tick = 0; tick < 600; ++tick) {
        std::vector<std::uint8_t> masks(6);
        for (auto& m : masks) m = static_cast<std::uint8_t>(rng() & 0xFF);
        step(sim, masks, prev);
        prev = masks;
        for (int viewer = 0; viewer < 6; ++viewer) {
            SCOPED_TRACE(::testing::Message() << "tick " << sim.tick_count() << " viewer " << viewer);
            const auto v = static_cast<std::size_t>(viewer);
            clients[v].apply(streams[v].next(rh::manual_scene(sim, viewer)));
            const auto held = clients[v].ids();
            ASSERT_EQ(held, expected_ids(sim, viewer));
            for (int i = 0; i < 6; ++i)
                if (sim.players()[static_cast<std::size_t>(i)].team != sim.players()[static_cast<std::size_t>(viewer)].team)
                    ++(held.count(cog_id(sim, i)) ? enemies_seen : enemies_hidden);
        }
    }
    EXPECT_GT(sim.game_index(), 0);  // the run reached the second game (sides swapped)
    EXPECT_GT(enemies_seen, 0);
    EXPECT_GT(enemies_hidden, 0);
}

}  // namespace
