#pragma once
// The server's half of RFC 6455's opening handshake (section 4.2) once the request is read: the
// checks on its key and version, and the 101 answer. Our own few lines instead of Beast's
// websocket::stream, whose templates cost ~20 s of compile for them (issue 38). Pure: no socket.
#include <string>
#include <string_view>
#include <variant>

#include "net/http_types.hpp"

namespace hschool::net {

inline constexpr std::string_view kWsVersion = "13";           // the only version RFC 6455 defines
inline constexpr std::size_t kMaxWsKeyChars = 24;              // base64 of the 16-byte nonce (section 4.1)

// What of an upgrade request (already known to be GET, Connection: upgrade, Upgrade: websocket) the
// handshake still checks; the views point into the request.
struct WsHandshakeRequest {
    unsigned http_version = 11;  // 10 * major + minor, as the parser reports it
    bool has_host = false;
    bool has_key = false;
    std::string_view key;
    bool has_version = false;
    std::string_view version;
};

// The Sec-WebSocket-Accept value for a valid request, or the problem to answer: 400 for a missing
// Host or key or a key longer than a nonce's base64, 426 (with Sec-WebSocket-Version: 13) for any
// version but 13 — the checks and answers Beast's accept made.
std::variant<std::string, HttpResponse> ws_handshake_accept(const WsHandshakeRequest& request);

// base64(SHA-1(key + the RFC's GUID)).
std::string ws_accept_key(std::string_view key);

// The whole 101 Switching Protocols answer, ready for the socket.
std::string ws_switching_protocols(std::string_view accept_key);

}  // namespace hschool::net
