#pragma once
// Every limit the server enforces on a peer, named in one place.
#include <chrono>
#include <cstddef>
#include <cstdint>

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
inline constexpr std::size_t kMaxReliableFrames = 256;       // reliable frames queued before we give up
inline constexpr std::size_t kMaxReliableBytes = 8 * 1024 * 1024;
inline constexpr int kMaxCatchUpSteps = 5;                   // steps simulated after a stall
inline constexpr std::size_t kMaxHttpHeaderBytes = 8 * 1024;
inline constexpr std::size_t kMaxHttpBodyBytes = 64 * 1024;
inline constexpr auto kHttpRequestTimeout = 10s;             // whole request, headers and body
inline constexpr auto kHttpKeepAliveIdle = 30s;
inline constexpr auto kCloseGrace = 5s;                      // a peer's time to answer our close frame
inline constexpr auto kShutdownGrace = 2s;                   // time clients get to see close 1001
inline constexpr int kDefaultTickRate = 20;
inline constexpr int kMinTickRate = 1;
inline constexpr int kMaxTickRate = 120;                     // u8 in Welcome; beyond this is silly
inline constexpr std::uint16_t kDefaultPort = 8080;

}  // namespace hschool::server
