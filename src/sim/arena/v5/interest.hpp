#pragma once
// Who a v5 client sees: the players in a window of grid cells around its own avatar, plus per-cell
// counts of everyone. Pure functions of positions and settings, so they can be tested alone.
#include <cstddef>
#include <cstdint>

#include "sim/arena/arena_settings.hpp"

namespace hschool::sim::arena::v5 {

inline constexpr std::uint16_t kCellSize = 100;    // world units per grid cell
inline constexpr std::uint8_t kWindowCells = 5;    // the window is 5×5 cells: everyone within 200 u is seen
inline constexpr std::uint8_t kFarEvery = 10;      // ticks between far grids (2 Hz at 20 Hz)
inline constexpr int kFinestQuantumExp = -3;       // 1/8 unit
inline constexpr std::uint32_t kMaxQuantum = 65535;  // u16
inline constexpr int kMaxGridSide = 255;           // u8 cols and rows

struct Grid {
    std::uint8_t cols = 1;
    std::uint8_t rows = 1;
    std::size_t cells() const { return std::size_t{cols} * rows; }
};

// A rectangle of cells, [col0, col1) × [row0, row1).
struct Window {
    int col0 = 0, col1 = 0, row0 = 0, row1 = 0;
    bool contains(int col, int row) const { return col >= col0 && col < col1 && row >= row0 && row < row1; }
    bool operator==(const Window&) const = default;
};

// ⌈side / cell⌉ per axis, at most 255 (a wider world has wider last cells, via the clamp in cell_of).
Grid grid_for(const ArenaSettings& settings);
// The smallest e ≥ −3 with max(width, height) · 2^−e ≤ 65535.
int quantum_exp_for(const ArenaSettings& settings);
// q(x) = clamp(floor(x · 2^−e + 0.5), 0, 65535), in binary64 as the protocol says.
std::uint16_t quantise(float x, int quantum_exp);
// The cell a point is in, clamped into the grid; returned as row * cols + col.
std::uint16_t cell_of(float x, float y, const Grid& grid);
// kWindowCells² cells centred on the cell, shifted to lie inside the grid.
Window window_around(std::uint16_t cell, const Grid& grid);

}  // namespace hschool::sim::arena::v5
