#pragma once
// Every limit the transport enforces on a peer, named in one place. What a game adds (its message
// sizes, its budgets' floors, its queues) is in that game's own limits.
#include <chrono>
#include <cstddef>
#include <cstdint>

#include "net/token_bucket.hpp"

namespace hschool::net {

using namespace std::chrono_literals;

inline constexpr std::size_t kTickFrameRing = 32;            // tick frames buffered per connection
inline constexpr std::size_t kReadBufferBytes = 2 * 1024;     // per connection; client frames are small, big ones take several reads
inline constexpr int kMaxReadsPerWake = 8;                   // then other connections of the thread get a turn
inline constexpr std::size_t kMaxFramesPerWrite = 32;        // frames gathered into one sendmsg
inline constexpr std::size_t kMaxBytesPerWrite = 256 * 1024;
inline constexpr std::size_t kMaxFlushesPerTurn = 32;         // connections written before reads get a turn
inline constexpr int kNetworkThreadNice = 5;                // network threads yield to the loop thread
inline constexpr auto kHandshakeTimeout = 30s;               // the upgrade response must be written within this
inline constexpr std::size_t kMaxSkippedFrameBytes = 1024 * 1024;  // oversize skipped to send a clean 1009; beyond, a hard drop
inline constexpr std::size_t kMaxReliableFrames = 256;       // reliable frames queued before we give up
inline constexpr std::size_t kMaxReliableBytes = 8 * 1024 * 1024;
// Polled sockets (many small messages, one a tick: arena v5) are read every this often, in one
// batch per network thread, not on every message; a reply waits at most this long.
inline constexpr auto kPolledReadPeriod = 1ms;
inline constexpr int kMaxPolledPerPass = 512;                 // sockets one epoll_wait hands over; the rest come at once after
inline constexpr std::size_t kMaxHttpHeaderBytes = 8 * 1024;
inline constexpr std::size_t kMaxHttpBodyBytes = 64 * 1024;
inline constexpr auto kHttpRequestTimeout = 10s;             // whole request, headers and body
inline constexpr auto kHttpKeepAliveIdle = 30s;
inline constexpr auto kHttpConnectionLifetime = 10min;       // then the next answer says Connection: close
inline constexpr auto kHttpFileWriteTimeout = 120s;           // a streamed download (a replay is up to 64 MiB)
inline constexpr int kHttpMaxRequestsPerConnection = 1000;    // likewise after this many answers
inline constexpr std::size_t kDefaultMaxHttpConnections = 4096;       // plain HTTP connections in all
inline constexpr std::size_t kDefaultMaxHttpConnectionsPerIp = 64;    // from one address (a browser opens ~6)
inline constexpr auto kCloseGrace = 5s;                      // a peer's time to answer our close frame
inline constexpr auto kShutdownGrace = 2s;                   // time clients get to see close 1001
inline constexpr std::uintmax_t kMaxStaticFileBytes = 32 * 1024 * 1024;  // a built client file; bigger is not ours
inline constexpr int kDefaultIoThreads = 2;                   // network threads; socket writes are most of the CPU

// What one client may hold or send. Defaults of options sit here too, so the README can list them.
inline constexpr std::size_t kDefaultMaxConnections = 20000;      // open WebSockets in all
inline constexpr std::size_t kDefaultMaxConnectionsPerIp = 256;   // a school behind one NAT fits; a flood does not
inline constexpr auto kDefaultPingInterval = std::chrono::milliseconds(15s);  // WebSocket pings once a socket speaks
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
inline constexpr std::size_t kMaxCloseDrainBytes = 1024 * 1024;   // read after our Close (an oversized frame's skip)
inline constexpr std::size_t kMaxAbuseDrainBytes = 64 * 1024;     // read after closing a flood: parsing it costs CPU
inline constexpr std::size_t kMaxControlFrames = 16;            // pings/pongs queued before the peer is cut
inline constexpr auto kAcceptBackoffMin = 10ms;                   // after EMFILE and friends, before accepting again
inline constexpr auto kAcceptBackoffMax = 1s;
inline constexpr auto kLogThrottleInterval = 10s;                 // repeated warnings: one line per interval
inline constexpr std::size_t kMaxHttpDrainBytes = 1024 * 1024;    // request bytes read after an error answer
inline constexpr auto kHttpDrainTimeout = 2s;
inline constexpr auto kTcpKeepAliveIdle = 60s;                    // dead peers under the OS's own keepalive

}  // namespace hschool::net
