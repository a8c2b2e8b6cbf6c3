// The arena's per-tick work: snapshot capture + encode at several sizes, and one step.
#include <benchmark/benchmark.h>

#include <random>

#include "protocol/v1.hpp"
#include "sim/arena/arena_world.hpp"

namespace {

namespace arena = hschool::sim::arena;
namespace v1 = hschool::protocol::v1;

constexpr std::uint64_t kInputSeed = 7;

// A world holding `entities` entities in all (obstacles included), every player holding a random mask.
arena::ArenaWorld world_with(std::size_t entities) {
    arena::ArenaWorld world{arena::ArenaSettings{}};
    std::mt19937 rng(kInputSeed);
    std::uint32_t sequence = 0;
    while (world.entity_count() < entities && world.can_join()) {
        const auto id = world.apply(arena::JoinCommand{});
        world.apply(arena::InputCommand{id, sequence++, static_cast<std::uint8_t>(rng() & v1::buttons::kKnown)});
    }
    world.step();  // settle spawn overlaps once, so the timed steps are steady-state
    return world;
}

void snapshot_capture_encode(benchmark::State& state) {
    auto world = world_with(static_cast<std::size_t>(state.range(0)));
    v1::Snapshot scratch;
    std::size_t bytes = 0;
    for (auto _ : state) {
        world.capture_snapshot(scratch);
        auto frame = v1::encode(scratch);
        bytes = frame.size();
        benchmark::DoNotOptimize(frame.data());
    }
    state.counters["entities"] = static_cast<double>(world.entity_count());
    state.counters["frame_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(snapshot_capture_encode)->Arg(100)->Arg(1000)->Arg(3000)->Unit(benchmark::kMicrosecond);

void arena_step(benchmark::State& state) {
    auto world = world_with(static_cast<std::size_t>(state.range(0)) + arena::kDefaultObstacleCount);
    for (auto _ : state) world.step();
    state.counters["players"] = static_cast<double>(world.player_count());
}
BENCHMARK(arena_step)->Arg(1000)->Unit(benchmark::kMicrosecond);

// What the loop does per arena tick at 500 players (the target): step, capture, encode.
void arena_step_and_encode(benchmark::State& state) {
    auto world = world_with(static_cast<std::size_t>(state.range(0)) + arena::kDefaultObstacleCount);
    v1::Snapshot scratch;
    for (auto _ : state) {
        world.step();
        world.capture_snapshot(scratch);
        auto frame = v1::encode(scratch);
        benchmark::DoNotOptimize(frame.data());
    }
}
BENCHMARK(arena_step_and_encode)->Arg(500)->Arg(1000)->Unit(benchmark::kMicrosecond);

}  // namespace
