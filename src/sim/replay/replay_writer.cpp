#include "sim/replay/replay_writer.hpp"

#include <cstdio>
#include <cstdlib>
#include <type_traits>

#include "protocol/v1.hpp"
#include "sim/replay/replay_format.hpp"

namespace hschool::sim::replay {
namespace {

static_assert(arena::kMaxObstacleCount <= 0xFFFF, "the header stores the obstacle count as u16");

// Writing what the reader would refuse can only be our own bug.
[[noreturn]] void writer_bug(const char* what) {
    std::fprintf(stderr, "ReplayWriter: %s\n", what);
    std::abort();
}

void write_command(protocol::ByteWriter& out, const arena::ArenaCommand& command) {
    std::visit(
        [&](const auto& c) {
            using C = std::decay_t<decltype(c)>;
            if constexpr (std::is_same_v<C, arena::JoinCommand>) {
                if (c.name.size() > protocol::v1::kMaxNameBytes) writer_bug("join name above kMaxNameBytes");
                out.u8(command_tag::kJoin);
                out.u8(static_cast<std::uint8_t>(c.name.size()));
                out.raw(c.name);
            } else if constexpr (std::is_same_v<C, arena::LeaveCommand>) {
                out.u8(command_tag::kLeave);
                out.u32(c.player_id);
            } else {
                out.u8(command_tag::kInput);
                out.u32(c.player_id);
                out.u32(c.sequence);
                out.u8(c.buttons);
            }
        },
        command);
}

}  // namespace

protocol::Bytes encode_header(const arena::ArenaSettings& s) {
    if (arena::validate(s)) writer_bug("settings do not pass arena::validate()");
    protocol::Bytes bytes;
    bytes.reserve(kHeaderBytes);
    protocol::ByteWriter out(bytes);
    for (std::uint8_t b : kMagic) out.u8(b);
    out.u16(kFormatVersion);
    out.u64(s.seed);
    out.f32(s.width);
    out.f32(s.height);
    out.f32(s.player_speed);
    out.f32(s.player_radius);
    out.f32(s.obstacle_min_radius);
    out.f32(s.obstacle_max_radius);
    out.u16(static_cast<std::uint16_t>(s.obstacle_count));
    out.u8(s.tick_rate);
    return bytes;
}

ReplayWriter::ReplayWriter(const arena::ArenaSettings& settings) : buffer_(encode_header(settings)) {}

void ReplayWriter::record(std::uint32_t tick, std::span<const arena::ArenaCommand> commands, std::uint64_t hash) {
    if (tick != last_tick_ + 1) writer_bug("ticks must be recorded in order, one record per step");
    if (commands.size() > kMaxCommandsPerTick) writer_bug("more commands in one tick than kMaxCommandsPerTick");
    last_tick_ = tick;
    protocol::ByteWriter out(buffer_);
    out.u8(kTickMarker);
    out.u32(tick);
    out.u32(static_cast<std::uint32_t>(commands.size()));
    for (const auto& command : commands) write_command(out, command);
    out.u64(hash);
}

protocol::Bytes ReplayWriter::take_chunk() {
    protocol::Bytes chunk;
    chunk.swap(buffer_);
    return chunk;
}

}  // namespace hschool::sim::replay
