#pragma once
// The 256 aim headings as integer unit vectors scaled by 1024 (spec §3.7), built from the
// quarter table so no float is needed.
#include <array>

namespace hschool::sim::hns {

struct AimUnit {
    int x = 0, y = 0;
};

const std::array<AimUnit, 256>& aim_units();
inline const AimUnit& aim_unit(int brads) { return aim_units()[static_cast<unsigned>(brads) & 255u]; }

}  // namespace hschool::sim::hns
