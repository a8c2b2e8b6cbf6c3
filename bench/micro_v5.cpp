// Arena v5's per-tick work: the shared tick artefacts the loop builds in O(N), and one connection's
// Frame (delta against its previous Frame, then encoded), which each network thread does per client.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <memory>
#include <random>
#include <vector>

#include "protocol/v1.hpp"
#include "sim/arena/arena_world.hpp"
#include "sim/arena/v5/delta_encoder.hpp"
#include "sim/arena/v5/tick_artifacts.hpp"

namespace {

namespace arena = hschool::sim::arena;
namespace av5 = hschool::sim::arena::v5;
namespace v1 = hschool::protocol::v1;

constexpr std::uint64_t kMaskSeed = 11;
constexpr int kSpreadTicks = 100;              // 5 s of walking, so spawn clusters have spread out
constexpr std::size_t kMeasuredConnections = 400;  // a sample of observers spread over the slots

// N players on the default field, each walking with a random mask (changed now and then, as bots do).
class Crowd {
public:
    explicit Crowd(std::size_t players) : world_(arena::ArenaSettings{}), rng_(kMaskSeed) {
        while (ids_.size() < players && world_.can_join()) ids_.push_back(world_.apply(arena::JoinCommand{}));
        for (int i = 0; i < kSpreadTicks; ++i) step();
    }
    void step() {
        for (std::uint32_t id : ids_)
            if (rng_() % 20 == 0) world_.apply(arena::InputCommand{id, ++sequence_, static_cast<std::uint8_t>(rng_() % 16)});
        world_.step();
    }
    // With deltas against the previous call's artefacts, as the server builds them.
    std::shared_ptr<const av5::TickArtifacts> artifacts() {
        world_.capture_snapshot(snapshot_);
        players_.clear();
        std::uint16_t slot = 0;
        for (const auto& e : snapshot_.entities)
            if (e.kind == v1::kind::kPlayer) players_.push_back({slot++, e.id, e.x, e.y, e.colour, 0, 0, 0});
        previous_ = std::make_shared<const av5::TickArtifacts>(
            av5::build_artifacts(world_.tick(), world_.settings(), players_, previous_.get()));
        return previous_;
    }
    std::size_t size() const { return ids_.size(); }

private:
    arena::ArenaWorld world_;
    std::mt19937 rng_;
    std::vector<std::uint32_t> ids_;
    std::uint32_t sequence_ = 0;
    v1::Snapshot snapshot_;
    std::vector<av5::PlayerInput> players_;
    std::shared_ptr<const av5::TickArtifacts> previous_;
};

void v5_build_artifacts(benchmark::State& state) {
    Crowd crowd(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) {
        state.PauseTiming();
        crowd.step();
        state.ResumeTiming();
        auto t = crowd.artifacts();  // includes the snapshot capture the loop does anyway
        benchmark::DoNotOptimize(t.get());
    }
    state.counters["players"] = static_cast<double>(crowd.size());
}
BENCHMARK(v5_build_artifacts)->Arg(1600)->Arg(5000)->Unit(benchmark::kMicrosecond);

// One tick's Frames for a sample of connections; the time per Frame is the figure. With every > 1
// the connections get a Frame only every that many ticks (skipped: the merge codes them).
void frames_every(benchmark::State& state, int every) {
    Crowd crowd(static_cast<std::size_t>(state.range(0)));
    const std::size_t connections = std::min(kMeasuredConnections, crowd.size());
    std::vector<av5::DeltaEncoder> encoders(connections);
    const std::size_t stride = crowd.size() / connections;
    auto warm = crowd.artifacts();
    hschool::protocol::Bytes out;
    for (std::size_t i = 0; i < connections; ++i) encoders[i].encode_next(warm, static_cast<std::uint16_t>(i * stride), out);
    std::size_t bytes = 0, frames = 0;
    for (auto _ : state) {
        state.PauseTiming();
        std::shared_ptr<const av5::TickArtifacts> t;
        for (int i = 0; i < every; ++i) crowd.step(), t = crowd.artifacts();
        state.ResumeTiming();
        for (std::size_t i = 0; i < connections; ++i) {
            out.clear();
            encoders[i].encode_next(t, static_cast<std::uint16_t>(i * stride), out);
            bytes += out.size();
        }
        frames += connections;
        benchmark::DoNotOptimize(out.data());
    }
    std::uint64_t from_deltas = 0;
    for (const auto& e : encoders) from_deltas += e.frames_from_deltas();
    state.counters["frame_bytes"] = frames ? static_cast<double>(bytes) / static_cast<double>(frames) : 0;
    state.counters["from_deltas"] = frames ? static_cast<double>(from_deltas) / static_cast<double>(frames + connections) : 0;
    state.counters["frames"] = benchmark::Counter(static_cast<double>(frames), benchmark::Counter::kIsRate);  // per CPU second
}
void v5_frame_per_connection(benchmark::State& state) { frames_every(state, 1); }
BENCHMARK(v5_frame_per_connection)->Arg(400)->Arg(1600)->Arg(5000)->Unit(benchmark::kMillisecond);
void v5_frame_after_a_skip(benchmark::State& state) { frames_every(state, 2); }
BENCHMARK(v5_frame_after_a_skip)->Arg(1600)->Arg(5000)->Unit(benchmark::kMillisecond);

}  // namespace
