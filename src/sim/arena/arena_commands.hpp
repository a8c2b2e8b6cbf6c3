#pragma once
// Everything that can change the arena from outside; applied by the loop thread between steps.
#include <cstdint>
#include <string>
#include <variant>

namespace hschool::sim::arena {

struct JoinCommand {
    std::string name;  // at most protocol::v1::kMaxNameBytes of valid UTF-8; empty gets a default
    bool operator==(const JoinCommand&) const = default;
};
struct LeaveCommand {
    std::uint32_t player_id = 0;
    bool operator==(const LeaveCommand&) const = default;
};
struct InputCommand {
    std::uint32_t player_id = 0;
    std::uint32_t sequence = 0;
    std::uint8_t buttons = 0;
    bool operator==(const InputCommand&) const = default;
};

using ArenaCommand = std::variant<JoinCommand, LeaveCommand, InputCommand>;

}  // namespace hschool::sim::arena
