#pragma once
// Reads an arena replay with every count and length checked against the bytes left and a named
// maximum. Never throws; the first problem stops reading and is kept in error().
#include <cstddef>
#include <cstdint>
#include <vector>

#include "protocol/bytes.hpp"
#include "sim/arena/arena_commands.hpp"
#include "sim/arena/arena_settings.hpp"
#include "sim/replay/replay_error.hpp"

namespace hschool::sim::replay {

struct ReplayTick {
    std::uint32_t tick = 0;
    std::vector<arena::ArenaCommand> commands;  // applied before the step, in order
    std::uint64_t hash = 0;                     // state hash after the step
};

class ReplayReader {
public:
    // Parses the header at once; check header_ok() before next().
    explicit ReplayReader(protocol::ByteView bytes);

    bool header_ok() const { return header_ok_; }
    const arena::ArenaSettings& settings() const { return settings_; }

    // Reads the next complete record into out (reusing its capacity). Returns false at a clean
    // end (error() stays None), at a cut-off record (RecordTruncated) or at a malformed one.
    bool next(ReplayTick& out);

    ReplayError error() const { return error_; }
    std::uint32_t last_tick() const { return last_tick_; }  // of the last complete record
    std::size_t offset() const { return offset_; }          // where the next record starts

private:
    bool read_header();
    bool fail(ReplayError error);

    protocol::ByteView bytes_;
    std::size_t offset_ = 0;
    arena::ArenaSettings settings_{};
    bool header_ok_ = false;
    ReplayError error_ = ReplayError::None;
    std::uint32_t last_tick_ = 0;
};

}  // namespace hschool::sim::replay
