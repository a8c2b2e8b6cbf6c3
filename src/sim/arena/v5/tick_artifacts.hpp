#pragma once
// What the loop builds once per published tick for every v5 connection, in O(N): the players by
// grid cell, each player's own echo (ackSeq, queue, mask, exact position) and the far grid.
// Immutable once built, so network threads encode from it concurrently.
#include <cstddef>
#include <cstdint>
#include <vector>

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

struct TickArtifacts {
    std::uint32_t tick = 0;
    Grid grid;
    int quantum_exp = kFinestQuantumExp;
    std::vector<Visible> by_cell;           // counting-sorted by cell, each cell's run in slot order
    std::vector<std::uint32_t> cell_start;  // by_cell[cell_start[c] .. cell_start[c+1]) are cell c's
    std::vector<SelfEcho> self;             // by slot
    std::vector<std::uint8_t> far;          // players per cell, saturating at 255

    // The players in a window, in slot order (what a replica must hold), into out.
    void visible_in(const Window& window, std::vector<Visible>& out) const;
};

// players in any order, slots unique and below 2^14.
TickArtifacts build_artifacts(std::uint32_t tick, const ArenaSettings& settings, const std::vector<PlayerInput>& players);

}  // namespace hschool::sim::arena::v5
