#pragma once
// What the loop builds once per published tick for every v5 connection, in O(N): the players by
// grid cell, each player's own echo (ackSeq, queue, mask, exact position), the far grid, and what
// changed since the previous tick's artefacts, cell by cell, with the update records already
// encoded. Immutable once built, so network threads encode from it concurrently.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "protocol/bytes.hpp"
#include "sim/arena/v5/interest.hpp"

namespace hschool::sim::arena::v5 {

// One player as the world has it this tick, with what the server knows of its commands.
struct PlayerInput {
    std::uint16_t slot = 0;
    std::uint32_t id = 0;
    float x = 0, y = 0;
    std::uint32_t colour = 0;
    std::uint32_t ack_seq = 0;
    std::uint8_t input_queue = 0;
    std::uint8_t mask = 0;
};

// What a client's replica holds for one slot.
struct Visible {
    std::uint16_t slot = 0;
    std::uint32_t id = 0;
    std::uint16_t qx = 0, qy = 0;
    std::uint32_t colour = 0;
    bool operator==(const Visible&) const = default;
};

struct SelfEcho {
    bool present = false;
    std::uint32_t ack_seq = 0;
    std::uint8_t input_queue = 0;
    std::uint8_t mask = 0;
    float x = 0, y = 0;
    std::uint16_t cell = 0;
};

inline constexpr std::uint16_t kNoCell = 0xFFFF;  // not in the world (grids have at most 255² cells)

// A player in a cell now that was elsewhere at the previous tick, or not there at all.
struct Arrival {
    std::uint16_t slot = 0;
    std::uint16_t from_cell = kNoCell;  // kNoCell: it joined (or a new id took the slot)
    std::uint32_t record_at = 0;        // its update record against the previous tick, in arrival_records
    std::uint16_t record_bytes = 0;     // 0 when it joined or did not change
};

// A player in a cell at the previous tick that is elsewhere now, or gone.
struct Departure {
    std::uint16_t slot = 0;
    std::uint16_t to_cell = kNoCell;  // kNoCell: it left (or its slot went to a new id)
};

// Tick t against the artefacts of the tick before it, per cell. A connection whose last Frame was
// built from those artefacts codes its next Frame from these lists and blobs, without a merge.
struct TickDeltas {
    bool present = false;
    std::uint32_t previous_tick = 0;
    std::vector<std::uint16_t> previous_cell;  // by slot: the cell of the same player then, or kNoCell
    // Players in one cell at both ticks: their update records (those that changed), cell by cell.
    protocol::Bytes stay_records;
    std::vector<std::uint32_t> stay_start;     // cell c's records: [stay_start[c], stay_start[c + 1])
    std::vector<std::uint16_t> stay_count;
    std::vector<Arrival> arrivals;             // by the cell they are in now
    std::vector<std::uint32_t> arrival_start;
    protocol::Bytes arrival_records;
    std::vector<Departure> departures;         // by the cell they were in
    std::vector<std::uint32_t> departure_start;
};

struct TickArtifacts {
    std::uint32_t tick = 0;
    Grid grid;
    int quantum_exp = kFinestQuantumExp;
    std::vector<Visible> by_cell;           // counting-sorted by cell, each cell's run in slot order
    std::vector<std::uint32_t> cell_start;  // by_cell[cell_start[c] .. cell_start[c+1]) are cell c's
    std::vector<SelfEcho> self;             // by slot
    std::vector<std::uint8_t> far;          // players per cell, saturating at 255
    std::vector<std::uint32_t> at_of_slot;  // by slot: the player's index in by_cell (when self[slot].present)
    TickDeltas deltas;                      // against `previous` when build_artifacts was given one

    // The players in a window, in slot order (what a replica must hold), into out. For tests and
    // tools: the encoder walks the cells itself.
    void visible_in(const Window& window, std::vector<Visible>& out) const;
    const Visible& visible_of(std::uint16_t slot) const { return by_cell[at_of_slot[slot]]; }
};

// players in any order, slots unique and below 2^14. With the previous tick's artefacts (same
// settings), the result also carries the deltas against them.
TickArtifacts build_artifacts(std::uint32_t tick, const ArenaSettings& settings, const std::vector<PlayerInput>& players,
                              const TickArtifacts* previous = nullptr);

}  // namespace hschool::sim::arena::v5
