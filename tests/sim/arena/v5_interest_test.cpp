// v5 interest: grid, window and quantisation are pure functions with exact answers.
#include <gtest/gtest.h>

#include "sim/arena/v5/interest.hpp"
#include "sim/arena/v5/tick_artifacts.hpp"

namespace hschool::sim::arena::v5 {
namespace {

TEST(V5Interest, TheDefaultWorldIsSixteenByNineCellsOfAnEighthUnit) {
    const ArenaSettings settings;
    EXPECT_EQ(grid_for(settings).cols, 16);
    EXPECT_EQ(grid_for(settings).rows, 9);
    EXPECT_EQ(quantum_exp_for(settings), -3);
}

TEST(V5Interest, QuantumGrowsOnlyWhenTheWorldNoLongerFitsSixteenBits) {
    ArenaSettings settings;
    settings.width = 8191.875f;  // 65535 eighths
    EXPECT_EQ(quantum_exp_for(settings), -3);
    settings.width = 8192.0f;
    EXPECT_EQ(quantum_exp_for(settings), -2);
    settings.width = 100000.0f;
    EXPECT_EQ(quantum_exp_for(settings), 1);
    EXPECT_EQ(grid_for(settings).cols, 255);  // clamped: the last cells are wider
}

TEST(V5Interest, QuantiseRoundsHalfUpAndClamps) {
    EXPECT_EQ(quantise(0.0f, -3), 0);
    EXPECT_EQ(quantise(0.0625f, -3), 1);   // exactly half a quantum rounds up
    EXPECT_EQ(quantise(0.0624f, -3), 0);
    EXPECT_EQ(quantise(800.0f, -3), 6400);
    EXPECT_EQ(quantise(-5.0f, -3), 0);
    EXPECT_EQ(quantise(9000.0f, -3), 65535);
    EXPECT_EQ(quantise(3.0f, 1), 2);       // 1.5 quanta of 2 units
}

TEST(V5Interest, CellsAreClampedIntoTheGrid) {
    const Grid grid{16, 9};
    EXPECT_EQ(cell_of(0, 0, grid), 0);
    EXPECT_EQ(cell_of(99.99f, 0, grid), 0);
    EXPECT_EQ(cell_of(100, 0, grid), 1);
    EXPECT_EQ(cell_of(1600, 900, grid), 8 * 16 + 15);
    EXPECT_EQ(cell_of(-3, 5000, grid), 8 * 16);
}

TEST(V5Interest, TheWindowIsCentredThenShiftedInside) {
    const Grid grid{16, 9};
    EXPECT_EQ(window_around(cell_of(750, 450, grid), grid), (Window{5, 10, 2, 7}));
    EXPECT_EQ(window_around(cell_of(10, 10, grid), grid), (Window{0, 5, 0, 5}));
    EXPECT_EQ(window_around(cell_of(1590, 890, grid), grid), (Window{11, 16, 4, 9}));
    const Grid small{3, 2};  // smaller than the window: all of it
    EXPECT_EQ(window_around(4, small), (Window{0, 3, 0, 2}));
}

TEST(V5Interest, EveryoneWithinTwoHundredUnitsIsInTheWindow) {
    const ArenaSettings settings;
    const Grid grid = grid_for(settings);
    for (float x = 0; x <= 1600; x += 37)
        for (float y = 0; y <= 900; y += 41) {
            const Window w = window_around(cell_of(x, y, grid), grid);
            for (float dx : {-200.0f, 0.0f, 199.0f})
                for (float dy : {-200.0f, 0.0f, 199.0f}) {
                    const float ox = std::clamp(x + dx, 0.0f, 1600.0f), oy = std::clamp(y + dy, 0.0f, 900.0f);
                    const std::uint16_t c = cell_of(ox, oy, grid);
                    EXPECT_TRUE(w.contains(c % grid.cols, c / grid.cols)) << x << "," << y << " sees " << ox << "," << oy;
                }
        }
}

TEST(V5Interest, ArtifactsSortByCellAndListAWindowInSlotOrder) {
    const ArenaSettings settings;
    std::vector<PlayerInput> players = {
        {7, 70, 150, 150, 0x111111, 3, 1, 8}, {2, 20, 160, 140, 0x222222, 0, 0, 0},
        {5, 50, 1500, 850, 0x333333, 0, 0, 0}, {0, 10, 450, 150, 0x444444, 0, 0, 0},
    };
    const TickArtifacts t = build_artifacts(42, settings, players);
    EXPECT_EQ(t.tick, 42u);
    ASSERT_EQ(t.self.size(), 8u);
    EXPECT_TRUE(t.self[7].present);
    EXPECT_EQ(t.self[7].ack_seq, 3u);
    EXPECT_FALSE(t.self[1].present);
    EXPECT_EQ(t.far[1 * 16 + 1], 2);
    EXPECT_EQ(t.far[8 * 16 + 15], 1);
    std::vector<Visible> seen;
    t.visible_in(window_around(cell_of(150, 150, t.grid), t.grid), seen);
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_EQ(seen[0], (Visible{0, 10, 3600, 1200, 0x444444}));
    EXPECT_EQ(seen[1].slot, 2);
    EXPECT_EQ(seen[2].slot, 7);
}

TEST(V5Interest, TheFarGridSaturates) {
    std::vector<PlayerInput> players;
    for (std::uint16_t slot = 0; slot < 300; ++slot) players.push_back({slot, slot + 1u, 50, 50, 0, 0, 0, 0});
    const TickArtifacts t = build_artifacts(1, ArenaSettings{}, players);
    EXPECT_EQ(t.far[0], 255);
    EXPECT_EQ(t.cell_start[1], 300u);
}

}  // namespace
}  // namespace hschool::sim::arena::v5

namespace hschool::sim::arena::v5 {
namespace {

// Default field: 100-unit cells, 16 columns; quantum 1/8 unit. Cell of (x, y) = (y/100)*16 + x/100.
TEST(V5Deltas, ListStayersArrivalsAndDeparturesCellByCell) {
    const ArenaSettings settings;
    const TickArtifacts before = build_artifacts(10, settings, {
        {0, 100, 150, 150, 0xAA, 0, 0, 0},  // cell 17: moves within it
        {1, 101, 190, 150, 0xAA, 0, 0, 0},  // cell 17: crosses into cell 18
        {2, 102, 450, 450, 0xAA, 0, 0, 0},  // cell 68: leaves the world
        {3, 103, 650, 650, 0xAA, 0, 0, 0},  // cell 102: its slot goes to a new player
        {4, 104, 850, 150, 0xAA, 0, 0, 0},  // cell 24: stands still
    });
    const TickArtifacts t = build_artifacts(11, settings, {
        {0, 100, 151, 150, 0xAA, 0, 0, 0},
        {1, 101, 205, 150, 0xAA, 0, 0, 0},
        {3, 105, 650, 650, 0xBB, 0, 0, 0},
        {4, 104, 850, 150, 0xAA, 0, 0, 0},
        {5, 106, 50, 50, 0xCC, 0, 0, 0},    // cell 0: joins
    }, &before);
    const TickDeltas& d = t.deltas;
    ASSERT_TRUE(d.present);
    EXPECT_EQ(d.previous_tick, 10u);
    EXPECT_EQ(d.previous_cell[0], 17);
    EXPECT_EQ(d.previous_cell[1], 17);
    EXPECT_EQ(d.previous_cell[3], kNoCell) << "a new id in a reused slot is not the same player";
    EXPECT_EQ(d.previous_cell[5], kNoCell);

    // Cell 17 keeps one stayer that moved 8 quanta: one record; cell 24's stayer did not move: none.
    EXPECT_EQ(d.stay_count[17], 1);
    EXPECT_EQ(d.stay_start[18] - d.stay_start[17], 3u) << "form 1 (dx only): head + i8";
    EXPECT_EQ(d.stay_count[24], 0);
    EXPECT_EQ(d.stay_start[25], d.stay_start[24]);

    auto arrivals_in = [&](std::size_t cell) {
        return std::vector<Arrival>(d.arrivals.begin() + d.arrival_start[cell], d.arrivals.begin() + d.arrival_start[cell + 1]);
    };
    ASSERT_EQ(arrivals_in(18).size(), 1u);
    EXPECT_EQ(arrivals_in(18)[0].slot, 1);
    EXPECT_EQ(arrivals_in(18)[0].from_cell, 17);
    EXPECT_EQ(arrivals_in(18)[0].record_bytes, 3u) << "moved 15 units = 120 quanta along x";
    ASSERT_EQ(arrivals_in(0).size(), 1u);
    EXPECT_EQ(arrivals_in(0)[0].from_cell, kNoCell);
    EXPECT_EQ(arrivals_in(0)[0].record_bytes, 0u) << "a join has no record: it enters";
    ASSERT_EQ(arrivals_in(102).size(), 1u);
    EXPECT_EQ(arrivals_in(102)[0].from_cell, kNoCell);

    auto departures_from = [&](std::size_t cell) {
        return std::vector<Departure>(d.departures.begin() + d.departure_start[cell], d.departures.begin() + d.departure_start[cell + 1]);
    };
    ASSERT_EQ(departures_from(17).size(), 1u);
    EXPECT_EQ(departures_from(17)[0].slot, 1);
    EXPECT_EQ(departures_from(17)[0].to_cell, 18);
    ASSERT_EQ(departures_from(68).size(), 1u);
    EXPECT_EQ(departures_from(68)[0].to_cell, kNoCell) << "left the world";
    ASSERT_EQ(departures_from(102).size(), 1u);
    EXPECT_EQ(departures_from(102)[0].to_cell, kNoCell) << "its slot went to a new id";
    EXPECT_EQ(d.departures.size(), 3u);
}

TEST(V5Deltas, NoneAgainstAnotherFieldOrWithoutAPreviousTick) {
    ArenaSettings wide;
    wide.width = 3200;
    const TickArtifacts before = build_artifacts(1, wide, {{0, 1, 10, 10, 0, 0, 0, 0}});
    EXPECT_FALSE(build_artifacts(2, ArenaSettings{}, {{0, 1, 10, 10, 0, 0, 0, 0}}, &before).deltas.present);
    EXPECT_FALSE(build_artifacts(2, ArenaSettings{}, {{0, 1, 10, 10, 0, 0, 0, 0}}).deltas.present);
}

}  // namespace
}  // namespace hschool::sim::arena::v5
