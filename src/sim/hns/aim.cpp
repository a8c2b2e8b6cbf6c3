#include "sim/hns/aim.hpp"

namespace hschool::sim::hns {
namespace {

// Q[k] = round(1024 * cos(2*pi*k/256)) for k = 0..64, rounding half away from zero (§3.7).
constexpr int kQuarter[65] = {1024, 1024, 1023, 1021, 1019, 1016, 1013, 1009, 1004, 999, 993, 987, 980,
                              972,  964,  955,  946,  936,  926,  915,  903,  891,  878,  865, 851, 837,
                              822,  807,  792,  775,  759,  742,  724,  706,  688,  669,  650,  630, 610,
                              590,  569,  548,  526,  505,  483,  460,  438,  415,  392,  369,  345, 321,
                              297,  273,  249,  224,  200,  175,  150,  125,  100,  75,   50,   25,  0};

constexpr std::array<AimUnit, 256> build() {
    std::array<AimUnit, 256> t{};
    for (int i = 0; i < 256; ++i) {
        const int q = i / 64, k = i % 64;
        switch (q) {
            case 0: t[i] = {kQuarter[k], -kQuarter[64 - k]}; break;
            case 1: t[i] = {-kQuarter[64 - k], -kQuarter[k]}; break;
            case 2: t[i] = {-kQuarter[k], kQuarter[64 - k]}; break;
            default: t[i] = {kQuarter[64 - k], kQuarter[k]}; break;
        }
    }
    return t;
}

constexpr std::array<AimUnit, 256> kTable = build();

}  // namespace

const std::array<AimUnit, 256>& aim_units() { return kTable; }

}  // namespace hschool::sim::hns
