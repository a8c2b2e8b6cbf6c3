#pragma once
// The fog's two kernels on the 8 px grid (§3.10), apart from the Sim so the differential tests and
// the microbenchmarks can drive them with any grid. Defined in vision.cpp, the one hns file with
// floats. Grids are kFovCellCount cells, row-major.
#include <vector>

namespace hschool::sim::hns {

// GameConfig's visionConeDeg, visionBubble and sightRange.
struct ConeParams {
    int coneDeg = 0;
    int bubble = 0;
    int range = 0;
};

// The cells seen from cell (cx, cy) through `blocked`: the reference's recursive shadowcast.
void shadowcast(const std::vector<char>& blocked, int cx, int cy, std::vector<char>& visible);

// `cast` as seen from cell (cx, cy) aiming `aim` brads: cells in the bubble stay, cells past the
// range or outside the cone go dark.
void cone_filter(const ConeParams& params, int cx, int cy, int aim, const std::vector<char>& cast,
                 std::vector<char>& visible);

}  // namespace hschool::sim::hns
