#pragma once
// Why the server ended a connection: a closed set of labels for /metrics and the log, never text a
// client chose. A Close frame's cause is its request's, or else its code's; a socket dropped
// without one names what broke.
#include <cstdint>

namespace hschool::net {

enum class CloseCause : std::uint8_t {
    // Close frames, by code when the closer named nothing more specific.
    Normal,          // 1000
    GoingAway,       // 1001
    ProtocolError,   // 1002
    InvalidPayload,  // 1007
    Policy,          // 1008
    TooBig,          // 1009
    InternalError,   // 1011
    TryAgainLater,   // 1013
    OtherCode,
    // Close frames the transport sends for a named reason.
    NotReading,       // the outbox overflowed while the socket was full: the reader is slow
    ServerBehind,     // the outbox overflowed while the writer had not run: the server is slow (1013)
    PeerSilent,       // no Pong or frame for the peer timeout
    GreetingTimeout,  // no greeting in time
    OverBudget,       // inbound budget exceeded
    Shutdown,         // the server is stopping
    // Sockets dropped without a Close frame.
    WriteStall,       // the socket (or the reader's Pongs) took nothing for the write stall
    WriteFailed,      // a write or a wait to write failed
    HandshakeFailed,  // the upgrade never completed
    SetupFailed,      // the socket could not be configured after the upgrade
    SkipLimit,        // an oversized message past the skip limit
};
inline constexpr int kCloseCauseCount = static_cast<int>(CloseCause::SkipLimit) + 1;

// The /metrics label and the log word.
const char* label(CloseCause cause);
// The cause of a Close frame whose closer named none.
CloseCause cause_of_code(std::uint16_t code);

}  // namespace hschool::net
