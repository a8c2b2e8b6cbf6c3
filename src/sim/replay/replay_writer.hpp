#pragma once
// Appends an arena replay to a byte buffer, one record per step. The loop thread records; a
// background thread takes whole chunks and writes them to disk, in order.
#include <cstdint>
#include <span>

#include "protocol/bytes.hpp"
#include "sim/arena/arena_commands.hpp"
#include "sim/arena/arena_settings.hpp"

namespace hschool::sim::replay {

class ReplayWriter {
public:
    // Starts the buffer with the header; settings must pass arena::validate().
    explicit ReplayWriter(const arena::ArenaSettings& settings);

    // One step: the commands applied before it, in order, and the state hash after it. tick is
    // the world's tick() after the step, so the first record is tick 1 and each next one adds 1.
    void record(std::uint32_t tick, std::span<const arena::ArenaCommand> commands, std::uint64_t hash);

    // Moves out everything recorded since the last call (the header is in the first chunk).
    protocol::Bytes take_chunk();
    std::size_t pending_bytes() const { return buffer_.size(); }

private:
    protocol::Bytes buffer_;
    std::uint32_t last_tick_ = 0;
};

// The header bytes alone: what every replay of these settings starts with.
protocol::Bytes encode_header(const arena::ArenaSettings& settings);

}  // namespace hschool::sim::replay
