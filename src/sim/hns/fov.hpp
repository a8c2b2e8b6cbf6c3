#pragma once
// The fog's two kernels on the 8 px grid (§3.10), apart from the Sim so the differential tests and
// the microbenchmarks can drive them with any grid. Defined in vision.cpp, the one hns file with
// floats. Grids are kFovCellCount cells, row-major.
#include <cstdint>
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

// The cone and bubble filter, its verdicts kept per aim. Whether the cell at offset (dx, dy) from
// the origin survives depends on the params and the aim alone, so each (offset, aim) is decided
// once, by the reference's expressions, and every later filter with that aim looks it up. A copy
// starts empty: this is a cache, not match state.
class ConeFilter {
public:
    ConeFilter() = default;
    ConeFilter(const ConeFilter&) {}
    ConeFilter& operator=(const ConeFilter&) {
        forget();
        return *this;
    }
    ConeFilter(ConeFilter&&) noexcept = default;
    ConeFilter& operator=(ConeFilter&&) noexcept = default;
    ~ConeFilter() = default;

    // `cast` as seen from cell (cx, cy) aiming `aim` brads: cells in the bubble stay, cells past
    // the range or outside the cone go dark.
    void apply(const ConeParams& params, int cx, int cy, int aim, const std::vector<char>& cast,
               std::vector<char>& visible);

private:
    // Consecutive passing cells of one row, as offsets from the origin cell.
    struct Run {
        std::int16_t dy, dxFrom, dxTo;
    };
    void forget();
    void fill(int aim, std::vector<Run>& runs) const;

    ConeParams params_{};
    int rowReach_ = -1, colReach_ = -1;   // how far from the origin a cell can pass
    std::vector<std::vector<Run>> byAim_;  // one per aim, empty until first asked for (the origin always passes)
};

}  // namespace hschool::sim::hns
