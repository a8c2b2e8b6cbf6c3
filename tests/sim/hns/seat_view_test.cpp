// The decision observation (spec §2.5, decide.nim seatViewJson): keys and their order, values
// read off a real certification match (warren, seed 42), per-side room and fort blocks, the
// seat's memory, the driver's enemy memory and the shout jitter.
#include <gtest/gtest.h>

#include <array>
#include <boost/json.hpp>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "sim/hns/seat_view.hpp"
#include "sim/hns/constants.hpp"
#include "sim/hns/room_files.hpp"

namespace hschool::sim::hns {
namespace {

namespace json = boost::json;
namespace shns = hschool::sim::hns;

// The certification variant, six trusted joins, stepped until the first game starts (game tick 0).
shns::Sim playing_sim() {
    auto config = shns::variant_config("certification");
    EXPECT_TRUE(config) << config.error;
    auto resolved = shns::resolve_room_spec(*config);
    EXPECT_TRUE(resolved) << resolved.error;
    auto sim = shns::Sim::create(*resolved);
    EXPECT_TRUE(sim) << sim.error;
    for (int i = 0; i < shns::kSeats; ++i) EXPECT_TRUE(sim->add_player("Cog" + std::to_string(i + 1), i, "", true));
    const std::vector<shns::Input> zero(shns::kSeats);
    for (int i = 0; i < 10 && sim->phase() != shns::GamePhase::Playing; ++i) sim->step(zero, zero);
    EXPECT_EQ(sim->phase(), shns::GamePhase::Playing);
    return std::move(*sim);
}

void step_ticks(shns::Sim& sim, int ticks) {
    const std::vector<shns::Input> zero(shns::kSeats);
    for (int i = 0; i < ticks; ++i) sim.step(zero, zero);
}

std::vector<std::string> keys(const json::object& o) {
    std::vector<std::string> out;
    for (const auto& kv : o) out.emplace_back(kv.key());
    return out;
}

json::array xy(int x, int y) { return json::array{x, y}; }

class HnsObservation : public ::testing::Test {
protected:
    shns::Sim sim = playing_sim();
    shns::Driver driver{sim};
    std::array<SeatMemory, shns::kSeats> memory{};

    std::string text(int seat, int turn = 0, bool external = false) const {
        return seat_view_json({sim, driver, seat, turn, external, memory});
    }
    json::object view(int seat, int turn = 0, bool external = false) const {
        return json::parse(text(seat, turn, external)).as_object();
    }
};

TEST_F(HnsObservation, TopLevelKeysInReferenceOrder) {
    const std::vector<std::string> base{"you", "role", "game", "of", "phase", "turn", "turns", "clock", "room",
                                        "you_at", "objects", "teammates", "seen_enemies", "heard", "exposure",
                                        "fort", "your_last_order"};
    EXPECT_EQ(keys(view(0)), base);
    auto with_notes = base;
    with_notes.push_back("your_notes");
    EXPECT_EQ(keys(view(0, 0, true)), with_notes);
    EXPECT_EQ(keys(view(0).at("clock").as_object()), (std::vector<std::string>{"phase", "phase_left_s", "hunt_len_s"}));
    EXPECT_EQ(keys(view(0).at("you_at").as_object()),
              (std::vector<std::string>{"pos", "aim", "region", "holding", "airborne"}));
    EXPECT_EQ(keys(view(0).at("exposure").as_object()),
              (std::vector<std::string>{"team_seen_ticks", "team_hidden_ticks", "margin", "you_seen_ticks", "seen_now",
                                        "hunt_ticks_left"}));
}

TEST_F(HnsObservation, EverySeatKnowsItsRoleAliasAndTheMatch) {
    for (int seat = 0; seat < shns::kSeats; ++seat) {
        const auto v = view(seat, 0);
        EXPECT_EQ(v.at("you").as_string(), sim.alias(seat)) << seat;
        EXPECT_EQ(v.at("role").as_string(), seat % 2 == 0 ? "hider" : "seeker") << seat;
        EXPECT_EQ(v.at("game").as_int64(), 1);
        EXPECT_EQ(v.at("of").as_int64(), 2);
        EXPECT_EQ(v.at("phase").as_string(), "prep");
        EXPECT_EQ(v.at("turn").as_int64(), 0);
        EXPECT_EQ(v.at("turns").as_int64(), 5);  // certification: 2 prep + 3 hunt turns
        const auto& at = v.at("you_at").as_object();
        EXPECT_EQ(at.at("pos"), xy(sim.players()[seat].x, sim.players()[seat].y));
        EXPECT_EQ(at.at("aim").as_int64(), sim.players()[seat].aimBrads);
        EXPECT_TRUE(at.at("holding").is_null());
        EXPECT_FALSE(at.at("airborne").as_bool());
    }
    EXPECT_EQ(view(3, 4).at("turn").as_int64(), 4);
}

TEST_F(HnsObservation, ClockCountsWholeSecondsLeftInThePhase) {
    auto clock = view(0).at("clock").as_object();
    EXPECT_EQ(clock.at("phase").as_string(), "prep");
    EXPECT_EQ(clock.at("phase_left_s").as_int64(), 180 / 24);  // 7, truncated
    EXPECT_EQ(clock.at("hunt_len_s").as_int64(), 270 / 24);    // 11
    step_ticks(sim, 90);
    EXPECT_EQ(view(0).at("clock").at("phase_left_s").as_int64(), 90 / 24);
    EXPECT_EQ(view(0).at("exposure").at("hunt_ticks_left").as_int64(), 270);
    step_ticks(sim, 100);  // game tick 190: ten ticks into the hunt
    const auto v = view(1);
    EXPECT_EQ(v.at("phase").as_string(), "hunt");
    EXPECT_EQ(v.at("clock").at("phase").as_string(), "hunt");
    EXPECT_EQ(v.at("clock").at("phase_left_s").as_int64(), (450 - 190) / 24);
    EXPECT_EQ(v.at("exposure").at("hunt_ticks_left").as_int64(), 270 - 10);
}

TEST_F(HnsObservation, ObjectsAreTheDealInOrder) {
    const json::array objects = view(0).at("objects").as_array();
    ASSERT_EQ(objects.size(), sim.objects().size());
    ASSERT_EQ(objects.size(), 8u);  // 4 crates, 2 panels, 2 ramps
    for (std::size_t i = 0; i < objects.size(); ++i) {
        const auto& o = objects[i].as_object();
        const auto& want = sim.objects()[i];
        EXPECT_EQ(keys(o), (std::vector<std::string>{"id", "kind", "box", "locked", "held_by"}));
        EXPECT_EQ(o.at("id").as_string(), want.id);
        EXPECT_EQ(o.at("box"), (json::array{want.x, want.y, want.w, want.h}));
        EXPECT_EQ(o.at("locked").as_string(), "none");
        EXPECT_TRUE(o.at("held_by").is_null());
        const char* kind = want.kind == shns::ObjectKind::Crate ? "crate"
                           : want.kind == shns::ObjectKind::Panel ? "panel" : "ramp";
        EXPECT_EQ(o.at("kind").as_string(), kind);
    }
}

TEST_F(HnsObservation, RoomBlockIsTheRoomDocument) {
    const auto room = view(0).at("room").as_object();
    const shns::Room& want = sim.room();
    EXPECT_EQ(keys(room), (std::vector<std::string>{"name", "w", "h", "walls", "doors", "regions", "pockets", "patrol",
                                                    "keep_clear_px", "seeker_pads"}));
    EXPECT_EQ(room.at("name").as_string(), "warren");
    EXPECT_EQ(room.at("w").as_int64(), 720);
    EXPECT_EQ(room.at("h").as_int64(), 400);
    EXPECT_EQ(room.at("keep_clear_px").as_int64(), 96);
    const auto& walls = room.at("walls").as_array();
    ASSERT_EQ(walls.size(), want.walls.size());
    for (std::size_t i = 0; i < walls.size(); ++i)
        EXPECT_EQ(walls[i], (json::array{want.walls[i].x, want.walls[i].y, want.walls[i].w, want.walls[i].h}));
    const auto& doors = room.at("doors").as_array();
    ASSERT_EQ(doors.size(), want.doors.size());
    for (std::size_t i = 0; i < doors.size(); ++i) {
        EXPECT_EQ(keys(doors[i].as_object()), (std::vector<std::string>{"id", "at", "w", "axis"}));
        EXPECT_EQ(doors[i].at("id").as_string(), want.doors[i].id);
        EXPECT_EQ(doors[i].at("at"), xy(want.doors[i].x, want.doors[i].y));
        EXPECT_EQ(doors[i].at("w").as_int64(), want.doors[i].w);
        EXPECT_EQ(doors[i].at("axis").as_string(), want.doors[i].vertical ? "v" : "h");
    }
    const auto& regions = room.at("regions").as_array();
    ASSERT_EQ(regions.size(), want.regions.size());
    for (std::size_t i = 0; i < regions.size(); ++i) {
        const auto& r = want.regions[i];
        EXPECT_EQ(regions[i].at("id").as_string(), r.id);
        EXPECT_EQ(regions[i].at("name").as_string(), r.name);
        EXPECT_EQ(regions[i].at("box"), (json::array{r.box.x, r.box.y, r.box.w, r.box.h}));
        EXPECT_EQ(regions[i].at("doors").as_array().size(), r.doors.size());
    }
    std::size_t pockets = 0, patrol = 0;
    for (const auto& a : want.anchors) {
        pockets += a.kind == shns::AnchorKind::Pocket;
        patrol += a.kind == shns::AnchorKind::Patrol;
    }
    EXPECT_GE(pockets, 6u);
    EXPECT_EQ(room.at("pockets").as_array().size(), pockets);
    EXPECT_EQ(room.at("patrol").as_array().size(), patrol);
    EXPECT_EQ(keys(room.at("pockets").as_array()[0].as_object()), (std::vector<std::string>{"id", "at"}));
}

TEST_F(HnsObservation, SeekersGetTheirOwnPadAndACountHidersGetEveryPadAndNames) {
    const auto seeker_pads = sim.room().pads(shns::AnchorTeam::Seekers);
    ASSERT_EQ(seeker_pads.size(), 3u);
    for (int seat : {1, 3, 5}) {
        const auto v = view(seat);
        const auto& room = v.at("room").as_object();
        EXPECT_FALSE(room.contains("seeker_pads"));
        const auto pad = seeker_pads[static_cast<std::size_t>(seat / 2) % 3];
        EXPECT_EQ(room.at("your_pad"), xy(pad.x, pad.y)) << seat;
        const auto& fort = v.at("fort").as_object();
        EXPECT_EQ(keys(fort), (std::vector<std::string>{"locked_by_us", "locked_by_them", "sealed_count"}));
        EXPECT_EQ(fort.at("sealed_count").as_int64(), 0);
    }
    for (int seat : {0, 2, 4}) {
        const auto v = view(seat);
        const auto& room = v.at("room").as_object();
        EXPECT_FALSE(room.contains("your_pad"));
        const auto& pads = room.at("seeker_pads").as_array();
        ASSERT_EQ(pads.size(), 3u);
        for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(pads[i], xy(seeker_pads[i].x, seeker_pads[i].y));
        const auto& fort = v.at("fort").as_object();
        EXPECT_EQ(keys(fort), (std::vector<std::string>{"locked_by_us", "locked_by_them", "sealed"}));
        EXPECT_TRUE(fort.at("sealed").as_array().empty());
    }
}

TEST_F(HnsObservation, SealedHidersAreNamedToHidersAndOnlyCountedToSeekers) {
    sim.place_player(0, 4, 200);  // inside the west wall: no seeker's flood reaches that cell
    step_ticks(sim, 90);          // the scan runs on turn boundaries
    ASSERT_TRUE(sim.players()[0].sealed);
    EXPECT_EQ(view(2).at("fort").at("sealed"), (json::array{sim.alias(0)}));
    EXPECT_EQ(view(0).at("fort").at("sealed"), (json::array{sim.alias(0)}));
    EXPECT_EQ(view(1).at("fort").at("sealed_count").as_int64(), 1);
    EXPECT_EQ(text(1).find(sim.alias(0) + "\"]"), std::string::npos);
}

TEST_F(HnsObservation, TeammatesAreTheOtherTwoOfMySideWithTheirRadio) {
    memory[2].radio = "box1 on d1";
    memory[1].radio = "seekers only";
    const json::array mates = view(0).at("teammates").as_array();
    ASSERT_EQ(mates.size(), 2u);
    EXPECT_EQ(keys(mates[0].as_object()), (std::vector<std::string>{"id", "pos", "holding", "last_radio"}));
    EXPECT_EQ(mates[0].at("id").as_string(), sim.alias(2));
    EXPECT_EQ(mates[1].at("id").as_string(), sim.alias(4));
    EXPECT_EQ(mates[0].at("pos"), xy(sim.players()[2].x, sim.players()[2].y));
    EXPECT_EQ(mates[0].at("last_radio").as_string(), "box1 on d1");
    EXPECT_EQ(mates[1].at("last_radio").as_string(), "");
    EXPECT_TRUE(mates[0].at("holding").is_null());
    const json::array seekers = view(3).at("teammates").as_array();
    ASSERT_EQ(seekers.size(), 2u);
    EXPECT_EQ(seekers[0].at("id").as_string(), sim.alias(1));
    EXPECT_EQ(seekers[0].at("last_radio").as_string(), "seekers only");
    EXPECT_EQ(seekers[1].at("id").as_string(), sim.alias(5));
}

TEST_F(HnsObservation, NotesGoOnlyToExternalSeats) {
    memory[0].notes = "lock pan1 next";
    EXPECT_FALSE(view(0).contains("your_notes"));
    EXPECT_EQ(view(0, 0, true).at("your_notes").as_string(), "lock pan1 next");
    EXPECT_EQ(view(2, 0, true).at("your_notes").as_string(), "");
    EXPECT_EQ(text(0).find("lock pan1 next"), std::string::npos);
}

TEST_F(HnsObservation, LastOrderEchoesTheStandingOrderAndItsResult) {
    EXPECT_TRUE(view(0).at("your_last_order").is_null());
    shns::Order push;
    push.intent = shns::Intent::Push;
    push.obj = "box1";
    push.hasTo = true;
    push.toX = 188;
    push.toY = 208;
    memory[0] = SeatMemory{&push, "unknown_object", "", ""};
    const auto last = view(0).at("your_last_order").as_object();
    EXPECT_EQ(keys(last), (std::vector<std::string>{"intent", "object", "result", "to"}));
    EXPECT_EQ(last.at("intent").as_string(), "push");
    EXPECT_EQ(last.at("object").as_string(), "box1");
    EXPECT_EQ(last.at("result").as_string(), "unknown_object");
    EXPECT_EQ(last.at("to"), xy(188, 208));
    shns::Order watch;  // no target: no "to" key, object ""
    memory[0] = SeatMemory{&watch, "", "", ""};
    const auto plain = view(0).at("your_last_order").as_object();
    EXPECT_EQ(keys(plain), (std::vector<std::string>{"intent", "object", "result"}));
    EXPECT_EQ(plain.at("intent").as_string(), "watch");
    EXPECT_EQ(plain.at("object").as_string(), "");
}

TEST_F(HnsObservation, MarginIsAFloatFromMySideAndFlipsForSeekers) {
    EXPECT_NE(text(0).find("\"margin\":0.0,"), std::string::npos);  // Nim's float text, not 0E0
    step_ticks(sim, 180 + 20);  // 20 ticks into the hunt
    ASSERT_EQ(sim.match_phase(), shns::MatchPhase::Hunt);
    ASSERT_EQ(sim.current_margin(), 1000);  // nobody moved: every hunt tick so far was hidden
    const double want = sim.current_margin() / 1000.0;
    const auto hider = view(0).at("exposure").as_object();
    const auto seeker = view(1).at("exposure").as_object();
    EXPECT_DOUBLE_EQ(hider.at("margin").as_double(), want);
    EXPECT_DOUBLE_EQ(seeker.at("margin").as_double(), -want);
    EXPECT_EQ(hider.at("team_seen_ticks").as_int64(), sim.seen_ticks());
    EXPECT_EQ(hider.at("team_hidden_ticks").as_int64(), sim.hidden_ticks());
    EXPECT_EQ(seeker.at("team_hidden_ticks").as_int64(), sim.hidden_ticks());
    EXPECT_EQ(hider.at("seen_now").as_bool(), sim.exposed_now());
    EXPECT_EQ(hider.at("you_seen_ticks").as_int64(), sim.players()[0].seatSeenTicks);
    EXPECT_NE(text(0).find("\"margin\":1.0,"), std::string::npos);
    EXPECT_NE(text(1).find("\"margin\":-1.0,"), std::string::npos);
}

TEST_F(HnsObservation, RegionIsTheFirstRegionHoldingMyPosition) {
    for (int seat = 0; seat < shns::kSeats; ++seat) {
        const auto& p = sim.players()[seat];
        std::string want;
        for (const auto& r : sim.room().regions)
            if (r.box.contains(p.x, p.y)) {
                want = r.id;
                break;
            }
        EXPECT_EQ(view(seat).at("you_at").at("region").as_string(), want) << seat;
    }
    sim.place_player(0, 0, 0);  // inside the outer wall: no region
    EXPECT_EQ(view(0).at("you_at").at("region").as_string(), "");
}

TEST_F(HnsObservation, HeardShoutsCarryTheJitteredSpotNotThePixel) {
    ASSERT_TRUE(sim.apply_shout(0, "over here"));
    const shns::Shout shout = sim.shouts().back();
    const shns::Point at = shout_heard_at(shout);
    for (int seat = 0; seat < shns::kSeats; ++seat) {
        const json::array heard = view(seat).at("heard").as_array();
        if (!sim.shout_audible_to(seat, shout)) {
            EXPECT_TRUE(heard.empty()) << seat;
            continue;
        }
        ASSERT_EQ(heard.size(), 1u) << seat;
        EXPECT_EQ(keys(heard[0].as_object()), (std::vector<std::string>{"team", "text", "at", "ticks_ago"}));
        EXPECT_EQ(heard[0].at("team").as_string(), "hiders");
        EXPECT_EQ(heard[0].at("text").as_string(), "over here");
        EXPECT_EQ(heard[0].at("at"), xy(at.x, at.y));
        EXPECT_EQ(heard[0].at("ticks_ago").as_int64(), 0);
    }
    EXPECT_EQ(view(0).at("heard").as_array().size(), 1u);  // a shouter hears itself
    step_ticks(sim, 5);
    EXPECT_EQ(view(0).at("heard").as_array()[0].at("ticks_ago").as_int64(), 5);
}

TEST(HnsShoutJitter, IsAPureBoundedHashOfTheShout) {
    // Values computed independently (Python) from the reference's formula (sim.nim shoutHeardAt).
    const auto at = [](int tick, int x, int y) {
        return shout_heard_at(shns::Shout{"a", shns::Team::Red, "hi", tick, x, y});
    };
    EXPECT_EQ(at(1, 100, 200).x, 108);
    EXPECT_EQ(at(1, 100, 200).y, 199);
    EXPECT_EQ(at(250, 360, 200).x, 353);
    EXPECT_EQ(at(250, 360, 200).y, 204);
    EXPECT_EQ(at(0, 0, 0).x, 0);  // clamped to the board
    EXPECT_EQ(at(0, 0, 0).y, 9);
    EXPECT_EQ(at(1000, 719, 399).x, 719);
    EXPECT_EQ(at(1000, 719, 399).y, 383);
    int moved = 0;
    for (int tick = 0; tick < 200; ++tick) {
        const shns::Point p = at(tick, 300 + tick, 150);
        EXPECT_LE(std::abs(p.x - (300 + tick)), kShoutJitterPx);
        EXPECT_LE(std::abs(p.y - 150), kShoutJitterPx);
        moved += p.x != 300 + tick || p.y != 150;
    }
    EXPECT_GE(moved, 195);
}

TEST_F(HnsObservation, SeenEnemiesComeFromTheDriversMemory) {
    step_ticks(sim, 181);  // into the hunt: seekers see
    const auto& seeker = sim.players()[1];
    bool placed = false;
    for (int dx : {16, -16, 0}) {
        for (int dy : {0, 16, -16}) {
            if ((dx || dy) && !placed && sim.can_occupy(seeker.x + dx, seeker.y + dy)) {
                sim.place_player(0, seeker.x + dx, seeker.y + dy);
                placed = true;
            }
        }
    }
    ASSERT_TRUE(placed);
    step_ticks(sim, 1);
    ASSERT_TRUE(sim.player_visible_to(1, 0));
    driver.set_enemy_memory(false);
    driver.observe(sim);
    EXPECT_TRUE(view(1).at("seen_enemies").as_array().empty());  // GameVersion 1: memory never reports

    // F1: a GameVersion 2 sim's driver reports the sighting without being asked.
    EXPECT_EQ(sim.game_version(), shns::GameVersion::V2);
    EXPECT_TRUE(shns::Driver(sim).enemy_memory());
    driver.set_enemy_memory(true);
    driver.observe(sim);
    const json::array seen = view(1).at("seen_enemies").as_array();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(keys(seen[0].as_object()), (std::vector<std::string>{"id", "pos", "ticks_ago"}));
    EXPECT_EQ(seen[0].at("id").as_string(), sim.alias(0));
    EXPECT_EQ(seen[0].at("pos"), xy(sim.players()[0].x, sim.players()[0].y));
    EXPECT_EQ(seen[0].at("ticks_ago").as_int64(), 0);
}

TEST_F(HnsObservation, SecondGameSwapsSidesAndCounts) {
    step_ticks(sim, 450 + 24);  // full game 1, then the game-over pause
    for (int i = 0; i < 10 && sim.game_index() == 0; ++i) step_ticks(sim, 1);
    ASSERT_EQ(sim.game_index(), 1);
    const auto v = view(0);
    EXPECT_EQ(v.at("game").as_int64(), 2);
    EXPECT_EQ(v.at("role").as_string(), "seeker");
    EXPECT_EQ(v.at("you").as_string(), sim.alias(0));
    EXPECT_EQ(view(1).at("role").as_string(), "hider");
}

TEST_F(HnsObservation, HeldAndLockedObjectsShowWhoAndWhich) {
    // Certification seed 42 deals box4 (object 3) at (144,312); a hider here faces its left edge.
    ASSERT_EQ(sim.objects()[3].id, "box4");
    sim.place_player(2, 130, 340);
    std::vector<shns::Input> cur(shns::kSeats), prev(shns::kSeats);
    cur[2].mask = shns::kBtnA;  // lock
    sim.step(cur, prev);
    ASSERT_EQ(sim.objects()[3].lockedBy, shns::LockOwner::Hiders);
    cur[2].mask = shns::kBtnC;  // grab (a fresh C press)
    sim.step(cur, prev);
    ASSERT_EQ(sim.players()[2].holding, 3);

    const auto hider = view(0);
    EXPECT_EQ(hider.at("objects").as_array()[3].at("locked").as_string(), "hiders");
    EXPECT_EQ(hider.at("objects").as_array()[3].at("held_by").as_string(), sim.alias(2));
    EXPECT_EQ(hider.at("teammates").as_array()[0].at("holding").as_string(), "box4");
    EXPECT_EQ(hider.at("fort").at("locked_by_us").as_int64(), 1);
    EXPECT_EQ(hider.at("fort").at("locked_by_them").as_int64(), 0);
    EXPECT_EQ(view(2).at("you_at").at("holding").as_string(), "box4");
    const auto seeker = view(1);
    EXPECT_EQ(seeker.at("fort").at("locked_by_us").as_int64(), 0);
    EXPECT_EQ(seeker.at("fort").at("locked_by_them").as_int64(), 1);
}

TEST_F(HnsObservation, SeatWithoutACogGetsAnEmptyObject) {
    EXPECT_EQ(text(6), "{}");
    EXPECT_EQ(text(-1), "{}");
}

}  // namespace
}  // namespace hschool::sim::hns
