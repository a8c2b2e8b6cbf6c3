// Issue 42: the hide-and-seek tick's hot functions, each timed as it stood before the issue
// (tests/sim/hns/pre42_kernels.hpp, the code of 0671c6d kept as the differential tests' oracle:
// the ".../pre42" rows) and as the sim runs it now (".../now"), on the same states in one binary.
// The states are a certification match's: the warren room with the furniture where the deal put
// it, six cogs joined, the shipped cone (35 degrees, bubble 48, range 340).
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "pre42_kernels.hpp"
#include "sim/hns/fov.hpp"
#include "sim/hns/room_files.hpp"
#include "sim_probe.hpp"

namespace {

namespace hns = hschool::sim::hns;
using hns::DriverProbe;
using hns::SimProbe;

constexpr std::uint32_t kSeed = 42;
constexpr int kPoints = 4096;  // occupancy and placement queries per iteration

hns::Sim certification_sim() {
    auto config = hns::variant_config("certification");
    auto resolved = hns::resolve_room_spec(*config);
    auto sim = hns::Sim::create(*resolved);
    hns::Sim out = std::move(*sim);
    for (int i = 0; i < 6; ++i) (void)out.add_player("Cog" + std::to_string(i + 1), i, "", true);
    return out;
}

hns::ConeParams shipped_cone(const hns::Sim& sim) {
    return {sim.config().visionConeDeg, sim.config().visionBubble, sim.config().sightRange};
}

// The cells a cog can stand in (not blocked), where the fog is cast from.
std::vector<int> open_cells(const hns::Sim& sim) {
    std::vector<int> cells;
    const auto& blocked = SimProbe::fov_blocked(sim);
    for (int i = 0; i < hns::kFovCellCount; ++i)
        if (!blocked[i]) cells.push_back(i);
    return cells;
}

// Footprint centres anywhere a cog could be asked about: the motion integrator's and the nav
// grid's queries fall on and around the floor.
std::vector<std::pair<int, int>> query_points() {
    std::mt19937 rng(kSeed);
    std::uniform_int_distribution<int> x(0, hns::kMapWidth - 1), y(0, hns::kMapHeight - 1);
    std::vector<std::pair<int, int>> points(kPoints);
    for (auto& p : points) p = {x(rng), y(rng)};
    return points;
}

// The shadowcast from every open cell in turn (one cast per iteration).
void hns_shadowcast(benchmark::State& state, bool now) {
    const hns::Sim sim = certification_sim();
    const std::vector<char>& blocked = SimProbe::fov_blocked(sim);
    const std::vector<int> cells = open_cells(sim);
    const bool pre42 = !now;
    std::vector<char> out;
    std::size_t k = 0;
    for (auto _ : state) {
        const int cell = cells[k++ % cells.size()];
        if (pre42) pre42::shadowcast(blocked, cell % hns::kFovGridW, cell / hns::kFovGridW, out);
        else hns::shadowcast(blocked, cell % hns::kFovGridW, cell / hns::kFovGridW, out);
        benchmark::DoNotOptimize(out.data());
    }
}
BENCHMARK_CAPTURE(hns_shadowcast, pre42, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(hns_shadowcast, now, true)->Unit(benchmark::kMicrosecond);

// The cone and bubble filter of a real cast, the origin cycling over open cells and the aim over
// the 128 headings a match turns through (aimTurnRate 6): the kept verdicts are warm, as in a
// match after its first turns.
void hns_cone(benchmark::State& state, bool now) {
    const hns::Sim sim = certification_sim();
    const std::vector<int> cells = open_cells(sim);
    const hns::ConeParams params = shipped_cone(sim);
    const bool pre42 = !now;
    std::vector<std::vector<char>> casts;
    for (std::size_t i = 0; i < 64; ++i) {
        const int cell = cells[i * cells.size() / 64];
        casts.emplace_back();
        hns::shadowcast(SimProbe::fov_blocked(sim), cell % hns::kFovGridW, cell / hns::kFovGridW, casts.back());
    }
    hns::ConeFilter filter;
    std::vector<char> out;
    std::size_t k = 0;
    for (auto _ : state) {
        const std::size_t c = k % casts.size();
        const int cell = cells[c * cells.size() / 64];
        const int aim = static_cast<int>((k * 2) % hns::kAimBradsTurn);
        ++k;
        if (pre42) pre42::cone(params, cell % hns::kFovGridW, cell / hns::kFovGridW, aim, casts[c], out);
        else filter.apply(params, cell % hns::kFovGridW, cell / hns::kFovGridW, aim, casts[c], out);
        benchmark::DoNotOptimize(out.data());
    }
}
BENCHMARK_CAPTURE(hns_cone, pre42, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(hns_cone, now, true)->Unit(benchmark::kMicrosecond);

// What deciding a heading's verdicts costs, the first time a process aims that way with these
// params (then one filter). The verdicts are shared by the whole process, so each iteration asks
// for a param set not among the last ones kept (the range cycles over 64 values around 340).
void hns_cone_first_aim(benchmark::State& state) {
    const hns::Sim sim = certification_sim();
    hns::ConeParams params = shipped_cone(sim);
    const int range = params.range;
    std::vector<char> cast;
    hns::shadowcast(SimProbe::fov_blocked(sim), 10, 40, cast);
    std::vector<char> out;
    int k = 0;
    for (auto _ : state) {
        params.range = range + k % 64;
        hns::ConeFilter filter;
        filter.apply(params, 10, 40, 2 * (k % 128), cast, out);
        ++k;
        benchmark::DoNotOptimize(out.data());
    }
}
BENCHMARK(hns_cone_first_aim)->Unit(benchmark::kMicrosecond);

// can_occupy: a body's footprint against walls and furniture (4,096 queries per iteration).
void hns_can_occupy(benchmark::State& state, bool now) {
    const hns::Sim sim = certification_sim();
    const pre42::Masks masks = pre42::masks_of(sim.room(), sim.objects());
    const auto points = query_points();
    const bool pre42 = !now;
    for (auto _ : state) {
        int open = 0;
        if (pre42)
            for (const auto& [x, y] : points) open += pre42::can_occupy(masks, x, y);
        else
            for (const auto& [x, y] : points) open += sim.can_occupy(x, y);
        benchmark::DoNotOptimize(open);
    }
    state.SetItemsProcessed(state.iterations() * kPoints);
}
BENCHMARK_CAPTURE(hns_can_occupy, pre42, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(hns_can_occupy, now, true)->Unit(benchmark::kMicrosecond);

// can_place_object: a held object nudged a few pixels every way (4,096 placements per iteration).
void hns_can_place_object(benchmark::State& state, bool now) {
    const hns::Sim sim = certification_sim();
    const pre42::Masks masks = pre42::masks_of(sim.room(), sim.objects());
    std::mt19937 rng(kSeed);
    std::uniform_int_distribution<int> nudge(-6, 6);
    std::vector<std::pair<int, hns::Rect>> tries(kPoints);
    for (std::size_t i = 0; i < tries.size(); ++i) {
        const int index = static_cast<int>(i % sim.objects().size());
        hns::Rect r = sim.objects()[index].rect();
        r.x += nudge(rng);
        r.y += nudge(rng);
        tries[i] = {index, r};
    }
    const bool pre42 = !now;
    auto keepClear = [&](const hns::Rect& r) { return SimProbe::keep_clear_violated(sim, r); };
    for (auto _ : state) {
        int fits = 0;
        for (const auto& [index, r] : tries)
            fits += pre42 ? pre42::can_place_object(masks, sim.objects(), sim.players(), index, r, 0, keepClear)
                          : SimProbe::can_place_object(sim, index, r, 0);
        benchmark::DoNotOptimize(fits);
    }
    state.SetItemsProcessed(state.iterations() * kPoints);
}
BENCHMARK_CAPTURE(hns_can_place_object, pre42, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(hns_can_place_object, now, true)->Unit(benchmark::kMicrosecond);

// One navigation field: the breadth-first distances to a goal over the seats' grid, from
// scratch (the goals cycle over every open nav cell).
void hns_nav_field(benchmark::State& state, bool now) {
    const hns::Sim sim = certification_sim();
    hns::Driver driver(sim);
    const std::vector<char>& open = DriverProbe::open(driver);
    const int w = DriverProbe::grid_w(driver), h = DriverProbe::grid_h(driver);
    std::vector<int> goals;
    for (int i = 0; i < w * h; ++i)
        if (open[i]) goals.push_back(i);
    const bool pre42 = !now;
    std::size_t k = 0;
    for (auto _ : state) {
        const int goal = goals[k++ % goals.size()];
        if (pre42) {
            auto field = pre42::nav_field(open, w, h, goal);
            benchmark::DoNotOptimize(field.data());
        } else {
            DriverProbe::drop_fields(driver);
            benchmark::DoNotOptimize(DriverProbe::field_for(driver, goal).data());
        }
    }
}
BENCHMARK_CAPTURE(hns_nav_field, pre42, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(hns_nav_field, now, true)->Unit(benchmark::kMicrosecond);

// The seats' nav grid after a one-pixel push: pre42 re-tested all 2,040 cells (can_occupy on
// byte masks); now only the cells whose footprint meets the pushed object's old or new rect.
void hns_nav_grid_after_push(benchmark::State& state, bool now) {
    hns::Sim sim = certification_sim();
    hns::Driver driver(sim);
    const bool pre42 = !now;
    int step = 1;
    for (auto _ : state) {
        state.PauseTiming();
        SimProbe::move_object(sim, 0, step, 0);  // to and fro, one pixel at a time
        step = -step;
        const pre42::Masks masks = pre42 ? pre42::masks_of(sim.room(), sim.objects()) : pre42::Masks{};
        state.ResumeTiming();
        if (pre42) {
            auto grid = pre42::nav_grid(masks);
            benchmark::DoNotOptimize(grid.data());
        } else {
            benchmark::DoNotOptimize(DriverProbe::update_grid(driver, sim));
        }
    }
}
BENCHMARK_CAPTURE(hns_nav_grid_after_push, pre42, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(hns_nav_grid_after_push, now, true)->Unit(benchmark::kMicrosecond);

}  // namespace
