// Issue 42: the fast fog, occupancy, placement and navigation paths give the answers the
// pre-issue-42 code gave (pre42_kernels.hpp), cell for cell and pixel for pixel, over many random
// states: random blocked grids and casts, furniture thrown anywhere in the three rooms, cogs at
// random spots and aims, whole matches checked tick by tick. And matches recorded before the
// change replay and re-run byte for byte after it.
#include <gtest/gtest.h>

#include <random>
#include <thread>

#include "hns_test_support.hpp"
#include "pre42_kernels.hpp"
#include "sha256.hpp"
#include "sim/hns/baselines.hpp"
#include "sim/hns/fov.hpp"
#include "sim/hns/match.hpp"
#include "sim/hns/replay.hpp"
#include "sim/hns/verify.hpp"
#include "sim_probe.hpp"

using namespace hns_test;
using hns::SimProbe;
using hns::DriverProbe;

namespace {

constexpr const char* kRooms[] = {"warren", "atrium", "long_hall"};

hns::Sim room_sim(const std::string& room, long long seed) {
    auto config = hns::variant_config("warren");
    EXPECT_TRUE(config);
    config->roomPool = room;
    config->seed = seed;
    hns::Sim out = sim_for(*config);
    join_six(out);
    return out;
}

std::vector<char> random_grid(std::mt19937& rng, double density) {
    std::bernoulli_distribution on(density);
    std::vector<char> grid(hns::kFovCellCount);
    for (char& c : grid) c = on(rng) ? 1 : 0;
    return grid;
}

int uniform(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

// Throws every object somewhere on (or partly off) the board through the sim's own move path.
void scatter_objects(hns::Sim& sim, std::mt19937& rng) {
    for (std::size_t i = 0; i < sim.objects().size(); ++i) {
        const hns::GameObject& o = sim.objects()[i];
        const int x = uniform(rng, -o.w / 2, hns::kMapWidth - o.w / 2), y = uniform(rng, -o.h / 2, hns::kMapHeight - o.h / 2);
        SimProbe::move_object(sim, static_cast<int>(i), x - o.x, y - o.y);
    }
}

pre42::Masks masks_of(const hns::Sim& sim) { return pre42::masks_of(sim.room(), sim.objects()); }

}  // namespace

TEST(HnsFastPaths, ShadowcastMatchesThePre42CastOnRandomGrids) {
    std::mt19937 rng(42);
    std::vector<char> fast, slow;
    int compared = 0;
    for (double density : {0.0, 0.02, 0.08, 0.2, 0.4, 0.7, 0.95}) {
        for (int g = 0; g < 12; ++g) {
            const std::vector<char> blocked = random_grid(rng, density);
            for (int k = 0; k < 40; ++k) {
                // Corners and edges first, then anywhere.
                const int cx = k < 4 ? (k % 2) * (hns::kFovGridW - 1) : uniform(rng, 0, hns::kFovGridW - 1);
                const int cy = k < 4 ? (k / 2) * (hns::kFovGridH - 1) : uniform(rng, 0, hns::kFovGridH - 1);
                hns::shadowcast(blocked, cx, cy, fast);
                pre42::shadowcast(blocked, cx, cy, slow);
                ASSERT_EQ(fast, slow) << "density " << density << " grid " << g << " origin " << cx << "," << cy;
                ++compared;
            }
        }
    }
    EXPECT_EQ(compared, 7 * 12 * 40);
}

TEST(HnsFastPaths, ShadowcastMatchesThePre42CastFromEveryCellOfTheRooms) {
    std::mt19937 rng(7);
    std::vector<char> fast, slow;
    for (const char* room : kRooms) {
        hns::Sim sim = room_sim(room, 1);
        for (int round = 0; round < 2; ++round) {
            if (round == 1) scatter_objects(sim, rng);
            const std::vector<char>& blocked = SimProbe::fov_blocked(sim);
            for (int cell = round; cell < hns::kFovCellCount; cell += 2) {
                const int cx = cell % hns::kFovGridW, cy = cell / hns::kFovGridW;
                hns::shadowcast(blocked, cx, cy, fast);
                pre42::shadowcast(blocked, cx, cy, slow);
                ASSERT_EQ(fast, slow) << room << " round " << round << " origin " << cx << "," << cy;
            }
        }
    }
}

TEST(HnsFastPaths, ConeMatchesThePre42FilterForAnyCastAimAndParams) {
    std::mt19937 rng(1);
    std::vector<char> fast, slow;
    // The shipped values, the culling's edge (89/90/91 degrees), a bubble wider than the range,
    // no bubble, and ranges past the board; then random ones.
    std::vector<hns::ConeParams> params = {{35, 48, 340}, {35, 48, 380}, {89, 48, 340}, {90, 48, 340}, {91, 48, 340},
                                           {180, 0, 4096}, {1, 0, 1},     {1, 600, 100},  {45, 4096, 4096}, {10, 0, 900}};
    for (int k = 0; k < 20; ++k) params.push_back({uniform(rng, 1, 180), uniform(rng, 0, 700), uniform(rng, 1, 1000)});
    hns::ConeFilter filter;  // one filter throughout: its kept verdicts must survive reuse and a change of params
    int compared = 0;
    for (const hns::ConeParams& p : params) {
        for (int k = 0; k < 50; ++k) {
            const std::vector<char> cast = random_grid(rng, std::uniform_real_distribution<double>(0.05, 1.0)(rng));
            const int cx = uniform(rng, 0, hns::kFovGridW - 1), cy = uniform(rng, 0, hns::kFovGridH - 1);
            // A few aims again and again (kept verdicts), any aim, and aims outside one turn.
            const int aim = k % 4 == 0 ? 8 * uniform(rng, 0, 3) : k % 31 == 30 ? uniform(rng, -300, 600) : uniform(rng, 0, 255);
            filter.apply(p, cx, cy, aim, cast, fast);
            pre42::cone(p, cx, cy, aim, cast, slow);
            ASSERT_EQ(fast, slow) << "cone " << p.coneDeg << " bubble " << p.bubble << " range " << p.range << " origin " << cx
                                  << "," << cy << " aim " << aim;
            ++compared;
        }
    }
    EXPECT_EQ(compared, 30 * 50);
}

TEST(HnsFastPaths, ConeVerdictsDecidedByTwoThreadsAtOnceAgreeWithThePre42Filter) {
    // Leagues and the server step matches on several threads; the verdicts of one param set are
    // shared, so two filters race to decide the same aims first.
    const hns::ConeParams p{33, 40, 300};  // a set no other test uses: nothing decided yet
    std::mt19937 rng(21);
    const std::vector<char> cast = random_grid(rng, 0.7);
    std::vector<std::vector<char>> got(2 * hns::kAimBradsTurn);
    auto filter_all = [&](int half) {
        hns::ConeFilter filter;
        for (int aim = 0; aim < hns::kAimBradsTurn; ++aim) filter.apply(p, 40, 25, aim, cast, got[half * hns::kAimBradsTurn + aim]);
    };
    std::thread other(filter_all, 1);
    filter_all(0);
    other.join();
    std::vector<char> want;
    for (int aim = 0; aim < hns::kAimBradsTurn; ++aim) {
        pre42::cone(p, 40, 25, aim, cast, want);
        ASSERT_EQ(got[aim], want) << "aim " << aim;
        ASSERT_EQ(got[hns::kAimBradsTurn + aim], want) << "aim " << aim << ", the other thread";
    }
}

TEST(HnsFastPaths, MasksOccupancyAndPlacementMatchThePre42PixelsWithFurnitureAnywhere) {
    std::mt19937 rng(3);
    for (const char* room : kRooms) {
        hns::Sim sim = room_sim(room, 5);
        for (int round = 0; round < 6; ++round) {
            SCOPED_TRACE(std::string(room) + " round " + std::to_string(round));
            if (round > 0) scatter_objects(sim, rng);
            const pre42::Masks m = masks_of(sim);
            for (int y = -1; y <= hns::kMapHeight; ++y)
                for (int x = -1; x <= hns::kMapWidth; ++x) {
                    const bool inside = x >= 0 && y >= 0 && x < hns::kMapWidth && y < hns::kMapHeight;
                    ASSERT_EQ(sim.wall_at(x, y), !inside || m.wall[y * hns::kMapWidth + x]) << x << "," << y;
                    ASSERT_EQ(sim.object_at_pixel(x, y), inside && m.object[y * hns::kMapWidth + x]) << x << "," << y;
                }
            ASSERT_EQ(SimProbe::fov_blocked(sim), pre42::fov_blocked(m));
            for (int k = 0; k < 10000; ++k) {
                const int x = uniform(rng, -3, hns::kMapWidth + 2), y = uniform(rng, -3, hns::kMapHeight + 2);
                ASSERT_EQ(sim.can_occupy(x, y), pre42::can_occupy(m, x, y)) << x << "," << y;
                const int ignore = uniform(rng, -1, static_cast<int>(sim.objects().size()));
                ASSERT_EQ(SimProbe::can_occupy_ignoring(sim, x, y, ignore), pre42::can_occupy_ignoring(m, sim.objects(), x, y, ignore))
                    << x << "," << y << " ignoring " << ignore;
            }
            // Near furniture edges, where the spans split.
            for (const hns::GameObject& o : sim.objects())
                for (int y = o.y - 8; y <= o.y + o.h + 8; ++y)
                    for (int x = o.x - 8; x <= o.x + o.w + 8; x += 3)
                        ASSERT_EQ(sim.can_occupy(x, y), pre42::can_occupy(m, x, y)) << x << "," << y;
            auto keepClear = [&](const hns::Rect& r) { return SimProbe::keep_clear_violated(sim, r); };
            for (int k = 0; k < 1000; ++k) {
                const int index = uniform(rng, 0, static_cast<int>(sim.objects().size()) - 1);
                const hns::GameObject& o = sim.objects()[index];
                const hns::Rect r{o.x + uniform(rng, -40, 40), o.y + uniform(rng, -40, 40), o.w, o.h};
                const hns::Rect any{uniform(rng, -20, hns::kMapWidth), uniform(rng, -20, hns::kMapHeight), uniform(rng, 1, 200),
                                    uniform(rng, 1, 200)};
                const int holder = uniform(rng, -1, 5);
                ASSERT_EQ(SimProbe::can_place_object(sim, index, r, holder),
                          pre42::can_place_object(m, sim.objects(), sim.players(), index, r, holder, keepClear));
                ASSERT_EQ(SimProbe::rect_hits_wall(sim, any), pre42::rect_hits_wall(m, any));
            }
        }
    }
}

TEST(HnsFastPaths, GrabProbeMatchesThePre42ProbeFromAnySpotAndAim) {
    std::mt19937 rng(11);
    for (const char* room : kRooms) {
        hns::Sim sim = room_sim(room, 9);
        for (int round = 0; round < 4; ++round) {
            scatter_objects(sim, rng);
            for (int k = 0; k < 4000; ++k) {
                const int slot = uniform(rng, 0, 5);
                sim.place_player(slot, uniform(rng, 0, hns::kMapWidth - 1), uniform(rng, 0, hns::kMapHeight - 1));
                SimProbe::set_aim(sim, slot, uniform(rng, 0, hns::kAimBradsTurn - 1));
                ASSERT_EQ(sim.grab_probe(slot), pre42::grab_probe(sim.objects(), sim.players()[slot], sim.config().grabReach));
            }
        }
    }
}

TEST(HnsFastPaths, SealedScanMatchesThePre42FloodWithLocksAndCogsAnywhere) {
    std::mt19937 rng(13);
    int sealed = 0, open = 0;
    for (const char* room : kRooms) {
        hns::Sim sim = room_sim(room, 4);
        for (int round = 0; round < 300; ++round) {
            if (round % 10 == 0) scatter_objects(sim, rng);
            for (int i = 0; i < static_cast<int>(sim.objects().size()); ++i)
                SimProbe::set_lock(sim, i, static_cast<hns::LockOwner>(uniform(rng, 0, 2)));
            for (int slot = 0; slot < 6; ++slot) {
                // Off the board too: the scan clamps a cog's cell.
                sim.place_player(slot, uniform(rng, -20, hns::kMapWidth + 20), uniform(rng, -20, hns::kMapHeight + 20));
                SimProbe::set_side(sim, slot, uniform(rng, 0, 1) ? hns::Team::Blue : hns::Team::Red, uniform(rng, 0, 5) != 0);
            }
            SimProbe::scan_sealed(sim);
            const std::uint64_t want = pre42::sealed_mask(SimProbe::wall_cells(sim), sim.objects(), sim.players());
            ASSERT_EQ(sim.sealed_mask(), want) << room << " round " << round;
            for (int slot = 0; slot < 6; ++slot) {
                if (sim.players()[slot].team != hns::Team::Red) continue;
                ASSERT_EQ(sim.players()[slot].sealed, ((want >> slot) & 1) != 0);
                (sim.players()[slot].sealed ? sealed : open) += 1;
            }
        }
    }
    // Both outcomes were exercised.
    EXPECT_GT(sealed, 100);
    EXPECT_GT(open, 100);
}

TEST(HnsFastPaths, RoomValidationMatchesThePre42GeometryChecksOnMutatedRooms) {
    std::mt19937 rng(17);
    int passed = 0, noClearance = 0, unreachable = 0;
    for (const char* name : kRooms) {
        auto shipped = hns::load_room_file(hns::rooms_dir() + "/room_" + name + ".json");
        ASSERT_TRUE(shipped) << shipped.error;
        for (int k = 0; k < 80; ++k) {
            hns::Room room = *shipped;
            switch (k % 4) {
                case 0:  // new walls anywhere on the board: footprints and floods change
                    for (int n = uniform(rng, 1, 3); n > 0; --n) {
                        const int x = uniform(rng, 0, hns::kMapWidth - 8), y = uniform(rng, 0, hns::kMapHeight - 8);
                        room.walls.push_back({x, y, uniform(rng, 4, std::min(160, hns::kMapWidth - x)),
                                              uniform(rng, 4, std::min(120, hns::kMapHeight - y))});
                    }
                    break;
                case 1: {  // an anchor nudged, maybe into a wall
                    hns::Anchor& a = room.anchors[uniform(rng, 0, static_cast<int>(room.anchors.size()) - 1)];
                    a.x += uniform(rng, -40, 40);
                    a.y += uniform(rng, -40, 40);
                    break;
                }
                case 2:  // a thin wall across the board: some regions cut off from some pads
                    if (uniform(rng, 0, 1)) room.walls.push_back({uniform(rng, 40, hns::kMapWidth - 40), 0, uniform(rng, 4, 16), hns::kMapHeight});
                    else room.walls.push_back({0, uniform(rng, 40, hns::kMapHeight - 40), hns::kMapWidth, uniform(rng, 4, 16)});
                    break;
                default: {  // a spawn moved anywhere
                    hns::ObjectSpawn& s = room.spawns[uniform(rng, 0, static_cast<int>(room.spawns.size()) - 1)];
                    s.x = uniform(rng, 0, hns::kMapWidth - 1);
                    s.y = uniform(rng, 0, hns::kMapHeight - 1);
                }
            }
            const std::string want = pre42::room_geometry_problem(room);
            auto parsed = hns::parse_room(hns::room_to_json(room));
            ASSERT_EQ(parsed ? std::string() : parsed.error, want) << name << " mutation " << k;
            passed += want.empty();
            noClearance += want.find("clearance") != std::string::npos || want.find("not on floor") != std::string::npos;
            unreachable += want.find("unreachable") != std::string::npos;
        }
    }
    EXPECT_GT(passed, 10) << passed;
    EXPECT_GT(noClearance, 10) << noClearance;
    EXPECT_GT(unreachable, 5) << unreachable;
}

TEST(HnsFastPaths, NavigationGridAndFieldsMatchThePre42DriverAfterEveryMove) {
    std::mt19937 rng(5);
    for (const char* room : kRooms) {
        hns::Sim sim = room_sim(room, 2);
        hns::Driver driver(sim);
        const int w = DriverProbe::grid_w(driver), h = DriverProbe::grid_h(driver);
        for (int round = 0; round < 30; ++round) {
            SCOPED_TRACE(std::string(room) + " round " + std::to_string(round));
            // Small pushes of one object (the usual case) and, now and then, everything thrown.
            if (round % 10 == 9) {
                scatter_objects(sim, rng);
            } else {
                const int index = uniform(rng, 0, static_cast<int>(sim.objects().size()) - 1);
                SimProbe::move_object(sim, index, uniform(rng, -20, 20), uniform(rng, -20, 20));
            }
            const std::vector<char> before = DriverProbe::open(driver);
            const bool changed = DriverProbe::update_grid(driver, sim);
            const std::vector<char> want = pre42::nav_grid(masks_of(sim));
            ASSERT_EQ(DriverProbe::open(driver), want);
            ASSERT_EQ(changed, want != before);
            DriverProbe::drop_fields(driver);
            for (int k = 0; k < 20; ++k) {
                const int goal = uniform(rng, -1, w * h);
                ASSERT_EQ(DriverProbe::field_for(driver, goal), pre42::nav_field(want, w, h, goal)) << "goal " << goal;
            }
        }
    }
}

TEST(HnsFastPaths, EveryCogsFogEqualsAFreshPre42CastAndConeEveryTick) {
    // The fog cells against the pixels now and then (a full pixel pass per tick would dominate).
    constexpr int kPixelCheckTicks = 16;
    // Scripted seats push, lock and chase: the fog caches live through pushes that flip cells.
    for (const long long seed : {7LL, 42LL}) {
        auto config = hns::variant_config("certification");
        ASSERT_TRUE(config);
        config->seed = seed;
        auto pinnedConfig = hns::resolve_room_spec(*config);
        ASSERT_TRUE(pinnedConfig);
        hns::MatchOptions opt;
        opt.enemyMemory = true;
        for (int s = 0; s < 6; ++s) opt.seats[s] = s % 2 ? hns::Baseline::Scatter : hns::Baseline::Burrow;
        int checked = 0;
        std::vector<char> cast, want;
        auto check = [&](const hns::Sim& sim) {
            if (sim.phase() != hns::GamePhase::Playing) return;
            const std::vector<char>& blocked = SimProbe::fov_blocked(sim);
            if (sim.tick_count() % kPixelCheckTicks == 0) {
                ASSERT_EQ(blocked, pre42::fov_blocked(masks_of(sim))) << "tick " << sim.tick_count();
            }
            const hns::ConeParams p{sim.config().visionConeDeg, sim.config().visionBubble, sim.config().sightRange};
            for (int slot = 0; slot < static_cast<int>(sim.players().size()); ++slot) {
                const hns::FovCache& c = SimProbe::fov(sim, slot);
                if (!c.valid) continue;
                const hns::Player& pl = sim.players()[slot];
                const int cx = std::clamp(pl.x / hns::kFovCellSize, 0, hns::kFovGridW - 1);
                const int cy = std::clamp(pl.y / hns::kFovCellSize, 0, hns::kFovGridH - 1);
                pre42::shadowcast(blocked, cx, cy, cast);
                pre42::cone(p, cx, cy, pl.aimBrads, cast, want);
                ASSERT_EQ(c.visible, want) << "tick " << sim.tick_count() << " slot " << slot;
                ++checked;
            }
        };
        auto out = hns::run_match(*pinnedConfig, opt, check);
        ASSERT_TRUE(out);
        EXPECT_GT(checked, 1000);
    }
}

namespace {

struct Pin {
    const char* variant;
    long long seed;
    const char* seats;
    bool enemyMemory;
    const char* replaySha256;  // the replay hschool-hns run wrote at 0671c6d, before issue 42
    const char* chainSha256;   // its hash chain, "tick:hash\n" per tick: what the rules decide
};

// GameVersion 2's directive records carry the engine's last result, so a version 1 match's replay
// bytes moved with it; the hash chain (every tick's state) is what must not move.
std::string chain_sha256(const hns::ReplayData& replay) {
    std::string text;
    for (const auto& h : replay.hashes) text += std::to_string(h.tick) + ":" + std::to_string(h.hash) + "\n";
    return sha256_hex(text);
}

// Every room (warren seeds 1 and 2 play atrium and long_hall), both baselines, enemy memory on
// and off.
constexpr Pin kPre42Pins[] = {
    {"certification", 7, "burrow,scatter,burrow,scatter,burrow,scatter", true,
     "ad3fd5d38b3644920eb892921ef210efe8053e403770a8f388c6729acd1bd869",
     "e5449d705bd93f589e3c4de777dc5b2808bdef15ac96a9bcd1f28ba3f87cf644"},
    {"certification", 42, "scatter,scatter,scatter,scatter,scatter,scatter", false,
     "03804c3a73d05eba0ea17978758cc57dd05a568e60387a30447406eec1a7f11f",
     "499aa59b7314bf63b0ebf21ca14e6d2eaf94749694a64a53a39f64a27fd94385"},
    {"warren", 1, "burrow,burrow,burrow,burrow,burrow,burrow", false,
     "0fc093521496ea6e3c04d13ad5d455d4f2b48d7c4a21a9313748bc2962e43997",
     "fcd298a06db2deab289ba95ef35b56c3de46c3d42b0013ba6a11f78dc8e30e6b"},
    {"warren", 2, "burrow,scatter,burrow,scatter,burrow,scatter", true,
     "d50990ff9990d265aa1bf7a72f2627334c82ce837131787eb7b56a965967bcb0",
     "823dde9539a0f100a52910d7fa8a70d56ba776c5a2534b7c27b70e7a0c1935e6"},
    {"warren", 42, "burrow,burrow,burrow,burrow,burrow,burrow", false,
     "305039bdbda521bae5bf5b0d41e81f3964a114224793396444d86f7eebd09208",
     "30bf706f27084d48f0fe36c7af5773e62fda03665771b9eb8e6a424a58367b4c"},
    {"long-hall", 3, "scatter,scatter,scatter,scatter,scatter,scatter", true,
     "aba58761815964496e54c6febe541f5510c3cc38034a9ed785fdc327c58762c4",
     "06fff7443bada3830cb8335c87e865a7128e9174625178ee9f9436a67b442d93"},
};

}  // namespace

TEST(HnsFastPaths, MatchesRecordedBeforeIssue42KeepTheirHashChain) {
    for (const Pin& pin : kPre42Pins) {
        SCOPED_TRACE(std::string(pin.variant) + " seed " + std::to_string(pin.seed) + " " + pin.seats);
        auto config = hns::variant_config(pin.variant);
        ASSERT_TRUE(config);
        config->seed = pin.seed;
        config->gameVersion = hns::GameVersion::V1;  // the pins were recorded before GameVersion 2
        auto pinnedConfig = hns::resolve_room_spec(*config);
        ASSERT_TRUE(pinnedConfig);
        hns::MatchOptions opt;
        opt.enemyMemory = pin.enemyMemory;
        std::string seats = pin.seats;
        for (int s = 0; s < 6; ++s) {
            const std::size_t comma = seats.find(',');
            opt.seats[s] = hns::parse_baseline(seats.substr(0, comma));
            seats = comma == std::string::npos ? "" : seats.substr(comma + 1);
        }
        auto out = hns::run_match(*pinnedConfig, opt);
        ASSERT_TRUE(out);
        auto replay = hns::parse_replay(out->replay);
        ASSERT_TRUE(replay) << replay.error;
        EXPECT_EQ(chain_sha256(*replay), pin.chainSha256);
    }
}

TEST(HnsFastPaths, AReplayRecordedBeforeIssue42VerifiesTickByTick) {
    const std::string bytes = read_file(vector_dir() + "/pre42_cert_s7_burrow_scatter_em.cowldhns");
    ASSERT_EQ(sha256_hex(bytes), kPre42Pins[0].replaySha256);
    auto data = hns::parse_replay(bytes);
    ASSERT_TRUE(data) << data.error;
    EXPECT_EQ(chain_sha256(*data), kPre42Pins[0].chainSha256);
    const hns::VerifyReport report = hns::verify_replay(*data);
    EXPECT_TRUE(report.ok) << report.message();
    EXPECT_EQ(report.checked, 949);
}
