#pragma once
// Every limit of the hide-and-seek endpoints (spec §2), named once so the pieces and tests agree.
#include <chrono>
#include <cstddef>
#include <cstdint>

#include "sim/hns/constants.hpp"

namespace hschool::server::hns {

using sim::hns::kMaxPlayers;                         // §2.2: slots 0..31; anything else becomes 32
using sim::hns::kSeats;                              // §2.3: registrations apply to seats 0..5
inline constexpr int kAutoSlot = -1;                 // §2.2: an empty slot means "any"
inline constexpr std::size_t kMaxQueryBytes = 4096;  // ours: a join query is a few dozen bytes
inline constexpr std::size_t kMaxQueryValueBytes = 1024;  // ours: names and tokens are short
inline constexpr std::size_t kMaxInputTextBytes = 4096;   // issue 12: a longer 0x81 is cut off
inline constexpr std::int64_t kDecisionDeadlineMs = 16000;  // §2.4: turnBudgetMs by default
inline constexpr std::int64_t kFrameMicros = 1'000'000 / sim::hns::kTargetFps;  // §2.7: 41,666 µs, 24 Hz
inline constexpr int kMaxSpeedIndex = 5;             // §2.8: PlaybackSpeeds has six entries

// Issue 19: what one client can make a match keep or do.
inline constexpr std::size_t kMaxKicksPerMatch = 256;       // kicked identities remembered per match (429 past it)
inline constexpr std::int64_t kMinRestartIntervalMs = 1000; // restarts closer together are 429 (one pending coalesces)
inline constexpr int kViewerRetryAfterSeconds = 5;           // a refused viewer's Retry-After
inline constexpr std::size_t kMaxInboxEvents = 8192;        // a match's inbox; past it masks, readies and texts are dropped
inline constexpr int kDefaultMaxTicksPerSecond = 4000;      // fast mode's ceiling (--hns-max-ticks-per-second)
// A match ends before its replay passes this (the archive refuses 64 MiB; the result record must fit).
inline constexpr std::size_t kMaxLiveReplayBytes = 60 * 1024 * 1024;
// Issue 19: a spectator's (or /replay viewer's) queued stream bytes. Past it the backlog is dropped
// and the viewer gets a keyframe once its socket drains: it holds at most this plus one tick's frame,
// and what it holds is shared with every other spectator of the match. Above a 1.45 MB keyframe.
inline constexpr std::size_t kSpectatorBacklogBytes = 4 * 1024 * 1024;
// A /replay viewer's own stream (not shared): smaller, so 64 slow viewers hold ≤ 128 MiB; still
// above a keyframe.
inline constexpr std::size_t kReplayBacklogBytes = 2 * 1024 * 1024;
// A compact-stream viewer's queued bytes before it is resynced (live or /replay): about ten seconds
// of a default match's compact stream, and above its keyframe (issue 31).
inline constexpr std::size_t kCompactBacklogBytes = 256 * 1024;
inline constexpr std::size_t kMaxQueuedReplayKeys = 64;  // key texts one /replay viewer may have waiting; more → 1008
inline constexpr int kWorkerNice = 10;  // the hub's worker yields to the matches, the network threads and the loop
inline constexpr int kMatchNice = 0;                      // live matches: as the loop, before the network threads' bulk
inline constexpr int kReplayViewerNice = 10;             // replay threads yield to matches and the network threads
inline constexpr int kMaxReplaySeekTicksPerFrame = 256;  // a long seek is spread over frames, so the thread still sleeps
// Issue 42: a seat's messages the network threads have not written (its socket could take them)
// before its match holds the next frame: an overloaded server slows every match's ticks instead
// of piling frames up until the seats are closed as slow readers. A few frames' worth, so a
// network thread a few milliseconds late never holds a match.
inline constexpr std::size_t kMaxSeatMessagesUnwritten = 4;
// A match held for the network looks again this often even without a wake-up (a seat that left).
inline constexpr auto kNetworkHoldRecheck = std::chrono::milliseconds(100);
// One `event=hns_behind` line per interval however many matches are late.
inline constexpr auto kBehindLogInterval = std::chrono::seconds(10);

}  // namespace hschool::server::hns
