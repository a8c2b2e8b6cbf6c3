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
