#pragma once
// The fog's two kernels on the 8 px grid (§3.10), apart from the Sim so the differential tests and
// the microbenchmarks can drive them with any grid. Defined in vision.cpp, the one hns file with
// floats. Grids are kFovCellCount cells, row-major.
#include <memory>
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

// The cone's verdicts for one set of params (vision.cpp). Whether the cell at offset (dx, dy)
// from the origin survives the cone and bubble depends on the params and the aim alone, so each
// (offset, aim) is decided once, by the reference's expressions, and shared by every filter with
// these params in the process, threads included.
class ConeVerdicts;

// The cone and bubble filter, looking its verdicts up.
class ConeFilter {
public:
    // `cast` as seen from cell (cx, cy) aiming `aim` brads: cells in the bubble stay, cells past
    // the range or outside the cone go dark.
    void apply(const ConeParams& params, int cx, int cy, int aim, const std::vector<char>& cast,
               std::vector<char>& visible);

private:
    std::shared_ptr<const ConeVerdicts> verdicts_;  // for the params of the last apply
};

}  // namespace hschool::sim::hns
