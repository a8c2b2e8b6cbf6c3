#include "sim/arena/v5/interest.hpp"

#include <algorithm>
#include <cmath>

namespace hschool::sim::arena::v5 {
namespace {

std::uint8_t cells_along(float side) {
    const double cells = std::ceil(static_cast<double>(side) / kCellSize);
    return static_cast<std::uint8_t>(std::clamp(cells, 1.0, static_cast<double>(kMaxGridSide)));
}

int clamp_index(float v, int count) {
    const double cell = std::floor(static_cast<double>(v) / kCellSize);
    return static_cast<int>(std::clamp(cell, 0.0, static_cast<double>(count - 1)));
}

// The window's start along one axis: centred, then pushed back inside [0, count).
int window_start(int centre, int count) {
    const int start = centre - kWindowCells / 2;
    return std::clamp(start, 0, std::max(0, count - kWindowCells));
}

}  // namespace

Grid grid_for(const ArenaSettings& settings) { return {cells_along(settings.width), cells_along(settings.height)}; }

int quantum_exp_for(const ArenaSettings& settings) {
    const double side = std::max(settings.width, settings.height);
    int e = kFinestQuantumExp;
    while (std::ldexp(side, -e) > kMaxQuantum) ++e;
    return e;
}

std::uint16_t quantise(float x, int quantum_exp) {
    const double q = std::floor(std::ldexp(static_cast<double>(x), -quantum_exp) + 0.5);
    if (!(q > 0)) return 0;  // also NaN, which the world never makes
    return static_cast<std::uint16_t>(std::clamp(q, 0.0, static_cast<double>(kMaxQuantum)));
}

std::uint16_t cell_of(float x, float y, const Grid& grid) {
    return static_cast<std::uint16_t>(clamp_index(y, grid.rows) * grid.cols + clamp_index(x, grid.cols));
}

Window window_around(std::uint16_t cell, const Grid& grid) {
    const int col = cell % grid.cols;
    const int row = cell / grid.cols;
    const int col0 = window_start(col, grid.cols);
    const int row0 = window_start(row, grid.rows);
    return {col0, std::min<int>(grid.cols, col0 + kWindowCells), row0, std::min<int>(grid.rows, row0 + kWindowCells)};
}

}  // namespace hschool::sim::arena::v5
