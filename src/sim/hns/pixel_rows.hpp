#pragma once
// One bit per board pixel, row by row (issue 42): the occupancy, placement and fog-cell tests ask
// "any pixel set in this span?" or "how many in this 8 px cell?" a 64-pixel word at a time instead
// of a byte at a time. Integer only.
#include <cstdint>
#include <vector>

#include "sim/hns/constants.hpp"

namespace hschool::sim::hns {

// Every fog cell is whole: the board is a whole number of cells each way.
static_assert(kMapWidth % kFovCellSize == 0 && kMapHeight % kFovCellSize == 0);
inline constexpr int kFovCellPixels = kFovCellSize * kFovCellSize;

class PixelRows {
public:
    static constexpr int kWordBits = 64;
    static constexpr int kRowWords = (kMapWidth + kWordBits - 1) / kWordBits;
    // A fog cell's 8 pixels of one row never straddle two words.
    static_assert(kWordBits % kFovCellSize == 0 && kFovCellSize == 8);
    static constexpr int kCellsPerWord = kWordBits / kFovCellSize;

    PixelRows() : words_(static_cast<std::size_t>(kRowWords) * kMapHeight, 0) {}

    // x and y inside the board.
    bool test(int x, int y) const { return (row(y)[x / kWordBits] >> (x % kWordBits)) & 1U; }
    // Sets or clears pixels [x0, x1) of row y; x0 < x1, both inside the board.
    void fill(int y, int x0, int x1, bool on);
    // Any pixel of [x0, x1) of row y set; x0 < x1, both inside the board.
    bool any(int y, int x0, int x1) const;
    // Any pixel set in the rectangle [x0, x1) x [y0, y1), inside the board.
    bool any_in(int x0, int y0, int x1, int y1) const;
    void clear_all();
    // Pixels set here or in `other` in the eight fog cells of word `w` on cell row cy: byte k
    // holds the count (0..64) of cell column 8 w + k.
    std::uint64_t cell_counts_with(const PixelRows& other, int cy, int w) const;
    // Bit (x, y) set when the square of half side `half` (< 64) centred there holds a set pixel
    // (pixels off the board count as clear): a body's footprint test becomes one bit.
    PixelRows dilated(int half) const;

    const std::uint64_t* row(int y) const { return words_.data() + static_cast<std::size_t>(y) * kRowWords; }

private:
    std::uint64_t* row(int y) { return words_.data() + static_cast<std::size_t>(y) * kRowWords; }
    std::vector<std::uint64_t> words_;
};

}  // namespace hschool::sim::hns
