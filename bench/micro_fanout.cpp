// One clock tick fanned out to many outboxes, without sockets: the loop thread's share of a broadcast.
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "protocol/v4.hpp"
#include "net/outbox.hpp"

namespace {

namespace net = hschool::net;
namespace v4 = hschool::protocol::v4;

void clock_fanout(benchmark::State& state) {
    const auto count = static_cast<std::size_t>(state.range(0));
    std::vector<std::unique_ptr<net::Outbox>> outboxes;
    outboxes.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        outboxes.push_back(std::make_unique<net::Outbox>([] {}));  // no session: waking is free
        outboxes.back()->push_welcome(net::make_frame(v4::encode(v4::Welcome{v4::kVersion, 20, 6})));
        outboxes.back()->next();  // the writer takes Welcome
        outboxes.back()->next();  // …and goes idle, so the next push wakes it, as in the server
    }
    std::int64_t game_ms = 1'333'432'800'000;
    for (auto _ : state) {
        const auto frame = net::make_frame(v4::encode(v4::Clock{1, game_ms += 15'000, 1, 1}));
        for (auto& outbox : outboxes) outbox->push_tick(frame);
        state.PauseTiming();
        for (auto& outbox : outboxes) {
            while (outbox->next().frame) {
            }
        }
        state.ResumeTiming();
    }
    state.counters["outboxes"] = static_cast<double>(count);
    state.counters["ns_per_outbox"] =
        benchmark::Counter(static_cast<double>(count), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(clock_fanout)->Arg(10000)->Unit(benchmark::kMicrosecond);

// The writer's side: taking one frame from each of the outboxes (what each session does per tick).
void clock_drain(benchmark::State& state) {
    const auto count = static_cast<std::size_t>(state.range(0));
    std::vector<std::unique_ptr<net::Outbox>> outboxes;
    for (std::size_t i = 0; i < count; ++i) {
        outboxes.push_back(std::make_unique<net::Outbox>([] {}));
        outboxes.back()->push_welcome(net::make_frame(v4::encode(v4::Welcome{v4::kVersion, 20, 6})));
        outboxes.back()->next();
        outboxes.back()->next();
    }
    const auto frame = net::make_frame(v4::encode(v4::Clock{1, 1'333'432'800'000, 1, 1}));
    for (auto _ : state) {
        state.PauseTiming();
        for (auto& outbox : outboxes) outbox->push_tick(frame);
        state.ResumeTiming();
        for (auto& outbox : outboxes) {
            while (outbox->next().frame) {
            }
        }
    }
}
BENCHMARK(clock_drain)->Arg(10000)->Unit(benchmark::kMicrosecond);

}  // namespace
