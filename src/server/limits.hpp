#pragma once
// The limits of the process as a whole and of the games it runs on /ws/game (the transport's own
// are in net/limits.hpp; each game folder has its own besides).
#include <chrono>
#include <cstddef>
#include <cstdint>

#include "server/arena/limits.hpp"
#include "sim/arena/arena_settings.hpp"

namespace hschool::server {

using namespace std::chrono_literals;

inline constexpr auto kHelloDeadline = 5s;                   // Hello must arrive within this
inline constexpr int kMaxCatchUpSteps = 5;                   // steps simulated after a stall
inline constexpr int kDefaultTickRate = sim::arena::kDefaultTickRate;  // the arena's replays record it
inline constexpr int kMinTickRate = 1;
inline constexpr int kMaxTickRate = 120;                     // u8 in Welcome; beyond this is silly
inline constexpr std::uint16_t kDefaultPort = 8080;
inline constexpr std::size_t kMaxQueuedCommands = 1 << 16;        // the loop's inbox; beyond, clients get 1013

}  // namespace hschool::server
