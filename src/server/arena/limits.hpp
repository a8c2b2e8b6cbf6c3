#pragma once
// The arena's own limits (v1 and v5 on /ws/game); the process's are in server/limits.hpp.
#include <cstddef>

namespace hschool::server {

inline constexpr std::size_t kDefaultMaxPlayers = 8000;       // avatars in the arena, v1 and v5 together
inline constexpr std::size_t kMaxMaxPlayers = 16383;          // every avatar needs a v5 slot

// Arena v5: one command per tick, queued; a connection with this many Frames unwritten while its
// socket is full is skipped (its next Frame coalesces), and the kernel holds at most this much
// unsent on its socket. A thread that is merely behind queues up to kV5MaxQueuedFrames: writing them
// together costs less than the merge a skip would cost later.
inline constexpr std::size_t kV5InputFifo = 8;
inline constexpr std::size_t kV5QueuedFrames = 2;
inline constexpr std::size_t kV5MaxQueuedFrames = 16;  // 800 ms at 20 Hz: a skip here costs a merge per connection
inline constexpr int kV5NotSentLowatBytes = 16 * 1024;

}  // namespace hschool::server
