#pragma once
// Every limit the server enforces on a peer, named in one place.
#include <chrono>
#include <cstddef>
#include <cstdint>

#include "net/token_bucket.hpp"
#include "sim/arena/arena_settings.hpp"

namespace hschool::server {

using namespace std::chrono_literals;

inline constexpr auto kHelloDeadline = 5s;                   // Hello must arrive within this
inline constexpr std::size_t kTickFrameRing = 32;            // tick frames buffered per connection
inline constexpr std::size_t kReadBufferBytes = 2 * 1024;     // per connection; client frames are small, big ones take several reads
inline constexpr int kMaxReadsPerWake = 8;                   // then other connections of the thread get a turn
inline constexpr std::size_t kMaxFramesPerWrite = 32;        // frames gathered into one sendmsg
inline constexpr std::size_t kMaxBytesPerWrite = 256 * 1024;
inline constexpr std::size_t kMaxFlushesPerTurn = 32;         // connections written before reads get a turn
inline constexpr int kNetworkThreadNice = 5;                // network threads yield to the loop thread
inline constexpr auto kHandshakeTimeout = 30s;               // the upgrade response must be written within this
inline constexpr std::size_t kMaxSkippedFrameBytes = 1024 * 1024;  // oversize skipped to send a clean 1009; beyond, a hard drop
// A Sprite v1 client message: 0x86 debug sprites go up to 32 KiB a tick, texts to 4 KiB.
inline constexpr std::size_t kMaxSpriteInboundBytes = 40 * 1024;
inline constexpr std::size_t kMaxReliableFrames = 256;       // reliable frames queued before we give up
inline constexpr std::size_t kMaxReliableBytes = 8 * 1024 * 1024;
inline constexpr int kMaxCatchUpSteps = 5;                   // steps simulated after a stall
// Arena v5: one command per tick, queued; a connection with this many Frames unwritten while its
// socket is full is skipped (its next Frame coalesces), and the kernel holds at most this much
// unsent on its socket. A thread that is merely behind queues up to kV5MaxQueuedFrames: writing them
// together costs less than the merge a skip would cost later.
inline constexpr std::size_t kV5InputFifo = 8;
inline constexpr std::size_t kV5QueuedFrames = 2;
inline constexpr std::size_t kV5MaxQueuedFrames = 16;  // 800 ms at 20 Hz: a skip here costs a merge per connection
inline constexpr int kV5NotSentLowatBytes = 16 * 1024;
// v5 sockets are read every this often, in one batch per network thread, not on every Input;
// a Pong waits at most this long, and a tick's Inputs still all arrive in time.
inline constexpr auto kV5ReadPollPeriod = 1ms;
inline constexpr int kMaxPolledPerPass = 512;                 // sockets one epoll_wait hands over; the rest come at once after
inline constexpr std::size_t kDefaultMaxPlayers = 8000;       // avatars in the arena, v1 and v5 together
inline constexpr std::size_t kMaxMaxPlayers = 16383;          // every avatar needs a v5 slot
inline constexpr std::size_t kMaxHttpHeaderBytes = 8 * 1024;
inline constexpr std::size_t kMaxHttpBodyBytes = 64 * 1024;
inline constexpr auto kHttpRequestTimeout = 10s;             // whole request, headers and body
inline constexpr auto kHttpKeepAliveIdle = 30s;
inline constexpr auto kHttpConnectionLifetime = 10min;
inline constexpr auto kHttpFileWriteTimeout = 120s;           // a streamed download (a replay is up to 64 MiB)        // then the next answer says Connection: close
inline constexpr int kHttpMaxRequestsPerConnection = 1000;    // likewise after this many answers
inline constexpr std::size_t kDefaultMaxHttpConnections = 4096;       // plain HTTP connections in all
inline constexpr std::size_t kDefaultMaxHttpConnectionsPerIp = 64;    // from one address (a browser opens ~6)
inline constexpr auto kCloseGrace = 5s;                      // a peer's time to answer our close frame
inline constexpr auto kShutdownGrace = 2s;                   // time clients get to see close 1001
inline constexpr int kDefaultTickRate = sim::arena::kDefaultTickRate;  // the arena's replays record it
inline constexpr int kMinTickRate = 1;
inline constexpr int kMaxTickRate = 120;                     // u8 in Welcome; beyond this is silly
inline constexpr std::uint16_t kDefaultPort = 8080;
inline constexpr std::size_t kMaxSchools = 6;                     // the v4 Welcome's max_schools
inline constexpr std::size_t kMaxModIds = 32;                     // far more than there are packs; keeps hostile lists short
inline constexpr std::uintmax_t kMaxStaticFileBytes = 32 * 1024 * 1024;  // a built client file; bigger is not ours
inline constexpr int kDefaultIoThreads = 2;                   // network threads; socket writes are most of the CPU

// What one client may hold or send. Defaults of options sit here too, so the README can list them.
inline constexpr std::size_t kDefaultMaxConnections = 20000;      // open WebSockets in all
inline constexpr std::size_t kDefaultMaxConnectionsPerIp = 256;   // a school behind one NAT fits; a flood does not
inline constexpr auto kDefaultPingInterval = std::chrono::milliseconds(15s);  // WebSocket pings after Hello
inline constexpr auto kDefaultPeerTimeout = std::chrono::milliseconds(45s);   // silence (no pong, no frame) → 1008
inline constexpr auto kDefaultWriteStall = std::chrono::milliseconds(10s);    // socket unwritable this long → dropped
// A reader that has not read what was written this long ago gets no more lossy frames until it
// catches up (delivery_window.hpp): it is skipped forward instead of reading ever older frames.
inline constexpr auto kDefaultMaxDeliveryLag = std::chrono::milliseconds(3s);
// A delivery window shut this long means a reader that is behind, not a Pong on its way: a spectator
// feed resyncs it, and when the window opens the tick ring skips to its newest frame.
inline constexpr auto kReaderLaggingAfter = std::chrono::milliseconds(250);
// Real clients send at most 30 inputs + 1 ping a second (arena) or a few controls (schools):
// 4× that sustained, with a burst for a tab waking from the background.
inline constexpr BudgetLimits kDefaultInboundBudget{120, 240, 64 * 1024, 256 * 1024};
// A Sprite v1 seat in fast mode answers every frame with a 0x85 (over 1,000 a second) and may send
// 32 KiB of debug sprites a tick: its floor. A flood beyond it is closed like any other.
inline constexpr BudgetLimits kSpriteInboundBudgetFloor{4000, 8000, 1024 * 1024, 2 * 1024 * 1024};
inline constexpr std::size_t kMaxCloseDrainBytes = 1024 * 1024;   // read after our Close (an oversized frame's skip)
inline constexpr std::size_t kMaxAbuseDrainBytes = 64 * 1024;     // read after closing a flood: parsing it costs CPU
inline constexpr std::size_t kMaxControlFrames = 16;            // pings/pongs queued before the peer is cut
inline constexpr std::size_t kMaxQueuedCommands = 1 << 16;        // the loop's inbox; beyond, clients get 1013
inline constexpr auto kAcceptBackoffMin = 10ms;                   // after EMFILE and friends, before accepting again
inline constexpr auto kAcceptBackoffMax = 1s;
inline constexpr auto kLogThrottleInterval = 10s;                 // repeated warnings: one line per interval
inline constexpr std::size_t kMaxHttpDrainBytes = 1024 * 1024;    // request bytes read after an error answer
inline constexpr auto kHttpDrainTimeout = 2s;
inline constexpr auto kTcpKeepAliveIdle = 60s;                    // dead peers under the OS's own keepalive

}  // namespace hschool::server
