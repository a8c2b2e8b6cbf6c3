// Encode and decode of every v1 and v4 message, one benchmark pair per message.
#include <benchmark/benchmark.h>

#include "protocol/v1.hpp"
#include "protocol/v4.hpp"

namespace {

namespace v1 = hschool::protocol::v1;
namespace v4 = hschool::protocol::v4;

constexpr int kSnapshotEntities = 100;  // a small arena; the sizes that matter are in micro_arena.cpp
constexpr int kMapNodes = 40;           // about the default map's size

v1::Snapshot sample_snapshot() {
    v1::Snapshot s{1234, {}};
    for (int i = 0; i < kSnapshotEntities; ++i) {
        s.entities.push_back({static_cast<std::uint32_t>(i + 1), v1::kind::kPlayer, 1.5f * i, 2.5f * i, 16.0f, 0x336699});
    }
    return s;
}

v4::MapSnapshot sample_map() {
    v4::MapSnapshot m{1, {}};
    m.nodes.push_back({v4::node_kind::kTerritory, "yard", "", "Двор", {"Скамейка ×4"}, {}});
    for (int i = 1; i < kMapNodes; ++i) {
        m.nodes.push_back({v4::node_kind::kRoom, "room-" + std::to_string(i), "yard", "Кабинет " + std::to_string(i),
                           {"Парта ×15", "Доска"}, {"desk-1", "desk-2", "desk-3"}});
    }
    return m;
}

template <class Message>
void encode_bench(benchmark::State& state, Message message) {
    for (auto _ : state) {
        auto bytes = encode(message);
        benchmark::DoNotOptimize(bytes.data());
    }
}

template <class Message, class Decode>
void decode_bench(benchmark::State& state, Message message, Decode decode) {
    const auto bytes = encode(message);
    for (auto _ : state) {
        auto decoded = decode(hschool::protocol::ByteView(bytes));
        benchmark::DoNotOptimize(decoded);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}

template <class Message>
void register_v1(const char* name, Message message, bool from_client) {
    benchmark::RegisterBenchmark((std::string("v1/encode/") + name).c_str(), [message](benchmark::State& s) { encode_bench(s, message); });
    if (from_client) {
        benchmark::RegisterBenchmark((std::string("v1/decode/") + name).c_str(),
                                     [message](benchmark::State& s) { decode_bench(s, message, v1::decode_client); });
    } else {
        benchmark::RegisterBenchmark((std::string("v1/decode/") + name).c_str(),
                                     [message](benchmark::State& s) { decode_bench(s, message, v1::decode_server); });
    }
}

template <class Message>
void register_v4(const char* name, Message message, bool from_client) {
    benchmark::RegisterBenchmark((std::string("v4/encode/") + name).c_str(), [message](benchmark::State& s) { encode_bench(s, message); });
    if (from_client) {
        benchmark::RegisterBenchmark((std::string("v4/decode/") + name).c_str(),
                                     [message](benchmark::State& s) { decode_bench(s, message, v4::decode_client); });
    } else {
        benchmark::RegisterBenchmark((std::string("v4/decode/") + name).c_str(),
                                     [message](benchmark::State& s) { decode_bench(s, message, v4::decode_server); });
    }
}

// Registered before main runs: the benchmark_main library lists whatever is registered by then.
const bool registered = [] {
    register_v1("Hello", v1::Hello{v1::kVersion, "Player One"}, true);
    register_v1("Input", v1::Input{258, v1::buttons::kUp | v1::buttons::kRight}, true);
    register_v1("Ping", v1::Ping{1'700'000'000'000}, true);
    register_v1("Welcome", v1::Welcome{v1::kVersion, 7, 20, 1600.0f, 900.0f}, false);
    register_v1("Snapshot100", sample_snapshot(), false);
    register_v1("Pong", v1::Pong{1'700'000'000'000, 42}, false);
    register_v4("Hello", v4::Hello{v4::kVersion, 1}, true);
    register_v4("Ping", v4::Ping{1'700'000'000'000}, true);
    register_v4("OpenSchool", v4::OpenSchool{3}, true);
    register_v4("CloseSchool", v4::CloseSchool{}, true);
    register_v4("SetRunning", v4::SetRunning{1}, true);
    register_v4("SetSpeed", v4::SetSpeed{2}, true);
    register_v4("Welcome", v4::Welcome{v4::kVersion, 20, 6}, false);
    register_v4("Pong", v4::Pong{1'700'000'000'000, 42}, false);
    register_v4("Clock", v4::Clock{1, 1'333'432'800'000, 1, 1}, false);
    register_v4("SchoolGone", v4::SchoolGone{1}, false);
    register_v4("MapSnapshot40", sample_map(), false);
    return true;
}();

}  // namespace
