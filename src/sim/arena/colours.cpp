#include "sim/arena/colours.hpp"

namespace hschool::sim::arena {
namespace {

constexpr std::uint64_t kSectorMillidegrees = 60000;
constexpr std::uint64_t kPermille = 1000;

std::uint32_t pack(std::uint64_t r, std::uint64_t g, std::uint64_t b) {
    return static_cast<std::uint32_t>((r << 16) | (g << 8) | b);
}

}  // namespace

std::uint32_t player_colour(std::uint32_t join_ordinal) {
    const std::uint64_t hue =
        (static_cast<std::uint64_t>(join_ordinal) * kGoldenAngleMillidegrees) % kFullTurnMillidegrees;
    const std::uint64_t sector = hue / kSectorMillidegrees;
    const std::uint64_t within = hue % kSectorMillidegrees;
    const std::uint64_t v = kPlayerValue;
    const std::uint64_t s = kPlayerSaturationPermille;
    const std::uint64_t scale = kPermille * kSectorMillidegrees;
    // The classic HSV sextants, with every product kept in integers.
    const std::uint64_t p = v * (kPermille - s) / kPermille;
    const std::uint64_t q = v * (scale - s * within) / scale;
    const std::uint64_t t = v * (scale - s * (kSectorMillidegrees - within)) / scale;
    switch (sector) {
        case 0: return pack(v, t, p);
        case 1: return pack(q, v, p);
        case 2: return pack(p, v, t);
        case 3: return pack(p, q, v);
        case 4: return pack(t, p, v);
        default: return pack(v, p, q);
    }
}

}  // namespace hschool::sim::arena
