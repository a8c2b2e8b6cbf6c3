#pragma once
// A hide-and-seek socket as a match sees it: the transport's WebSocket seam (net/ws_connection.hpp)
// under the names the matches use. A match never sees Asio: it sends and closes through a Peer and
// is told of messages as a PeerSink.
#include <cstdint>

#include "net/ws_connection.hpp"

namespace hschool::server::hns {

using Peer = net::WsConnection;
using PeerSink = net::WsHandler;
using net::SharedMessage;
using net::SharedMessagePtr;

// Close codes these sockets end with (RFC 6455 numbers).
inline constexpr std::uint16_t kCloseMatchOver = 1000;      // the match finished: results are in the REST
inline constexpr std::uint16_t kCloseGoingAway = 1001;      // the match was deleted or the server stops
inline constexpr std::uint16_t kCloseBadPayload = 1007;     // a malformed Sprite v1 message (§1: the receiver closes)
inline constexpr std::uint16_t kClosePolicy = 1008;         // refused after the upgrade (duplicate name, kicked, over a limit)
inline constexpr std::uint16_t kCloseTooBig = 1009;         // an over-long 0x81 text
inline constexpr std::uint16_t kCloseInternal = 1011;
inline constexpr std::uint16_t kCloseTryAgainLater = 1013;  // the server is busy right now

}  // namespace hschool::server::hns
