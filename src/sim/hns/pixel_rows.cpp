#include "sim/hns/pixel_rows.hpp"

#include <algorithm>

namespace hschool::sim::hns {
namespace {

constexpr std::uint64_t kAll = ~std::uint64_t{0};
// The last word's bits past the board's right edge stay clear.
constexpr int kTailBits = kMapWidth % PixelRows::kWordBits;
constexpr std::uint64_t kLastWordMask = kTailBits == 0 ? kAll : (std::uint64_t{1} << kTailBits) - 1;

// Bits [x0 % 64, 64) of x0's word and [0, (x1 - 1) % 64] of x1 - 1's word.
std::uint64_t from_bit(int x0) { return kAll << (x0 % PixelRows::kWordBits); }
std::uint64_t to_bit(int x1) { return kAll >> (PixelRows::kWordBits - 1 - (x1 - 1) % PixelRows::kWordBits); }

// Each byte of v replaced by its count of set bits (0..8).
std::uint64_t byte_popcounts(std::uint64_t v) {
    v = v - ((v >> 1) & 0x5555555555555555ULL);
    v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
    return (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
}

}  // namespace

void PixelRows::fill(int y, int x0, int x1, bool on) {
    std::uint64_t* r = row(y);
    const int w0 = x0 / kWordBits, w1 = (x1 - 1) / kWordBits;
    auto apply = [on](std::uint64_t& word, std::uint64_t mask) { word = on ? (word | mask) : (word & ~mask); };
    if (w0 == w1) {
        apply(r[w0], from_bit(x0) & to_bit(x1));
        return;
    }
    apply(r[w0], from_bit(x0));
    for (int w = w0 + 1; w < w1; ++w) r[w] = on ? kAll : 0;
    apply(r[w1], to_bit(x1));
}

bool PixelRows::any(int y, int x0, int x1) const { return any_in(x0, y, x1, y + 1); }

bool PixelRows::any_in(int x0, int y0, int x1, int y1) const {
    if (x0 >= x1 || y0 >= y1) return false;
    const int w0 = x0 / kWordBits, w1 = (x1 - 1) / kWordBits;
    const std::uint64_t first = from_bit(x0), last = to_bit(x1);
    if (w1 - w0 <= 1) {
        // At most two words (every body footprint): OR the rows together, test once.
        std::uint64_t left = 0, right = 0;
        for (int y = y0; y < y1; ++y) {
            const std::uint64_t* r = row(y);
            left |= r[w0];
            right |= r[w1];
        }
        if (w0 == w1) return (left & first & last) != 0;
        return ((left & first) | (right & last)) != 0;
    }
    for (int y = y0; y < y1; ++y) {
        const std::uint64_t* r = row(y);
        if (w0 == w1) {
            if (r[w0] & first & last) return true;
            continue;
        }
        if (r[w0] & first) return true;
        for (int w = w0 + 1; w < w1; ++w)
            if (r[w]) return true;
        if (r[w1] & last) return true;
    }
    return false;
}

void PixelRows::clear_all() { std::fill(words_.begin(), words_.end(), 0); }

std::uint64_t PixelRows::cell_counts_with(const PixelRows& other, int cy, int w) const {
    std::uint64_t counts = 0;  // eight rows of at most 8 each: no byte overflows
    for (int y = cy * kFovCellSize; y < (cy + 1) * kFovCellSize; ++y) counts += byte_popcounts(row(y)[w] | other.row(y)[w]);
    return counts;
}

// Dilating by a and then by b dilates by a + b, so the radius grows 1, 3, 7, ... up to `half`:
// three passes for a body instead of six shifts and thirteen rows.
PixelRows PixelRows::dilated(int half) const {
    PixelRows across = *this;
    for (int reach = 0; reach < half;) {
        const int k = std::min(reach + 1, half - reach);
        for (int y = 0; y < kMapHeight; ++y) {
            std::uint64_t* r = across.row(y);
            std::uint64_t in[kRowWords];
            std::copy(r, r + kRowWords, in);
            for (int w = 0; w < kRowWords; ++w) {
                std::uint64_t v = in[w] | in[w] << k | in[w] >> k;
                if (w > 0) v |= in[w - 1] >> (kWordBits - k);
                if (w + 1 < kRowWords) v |= in[w + 1] << (kWordBits - k);
                r[w] = v;
            }
            r[kRowWords - 1] &= kLastWordMask;
        }
        reach += k;
    }
    PixelRows result = across;
    for (int reach = 0; reach < half;) {
        const int k = std::min(reach + 1, half - reach);
        const PixelRows before = result;
        for (int y = 0; y < kMapHeight; ++y) {
            std::uint64_t* out = result.row(y);
            for (const int from : {y - k, y + k}) {
                if (from < 0 || from >= kMapHeight) continue;
                const std::uint64_t* in = before.row(from);
                for (int w = 0; w < kRowWords; ++w) out[w] |= in[w];
            }
        }
        reach += k;
    }
    return result;
}

}  // namespace hschool::sim::hns
