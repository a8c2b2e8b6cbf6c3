#include "net/ws_handshake.hpp"

#include "net/http_answer.hpp"

#include <openssl/evp.h>

#include <array>
#include <cstdlib>
#include <utility>
#include <vector>

namespace hschool::net {

namespace {
constexpr std::string_view kWsGuid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";  // RFC 6455 section 1.3
}

std::variant<std::string, HttpResponse> ws_handshake_accept(const WsHandshakeRequest& request) {
    if (request.http_version != 11)
        return problem(400, "bad-request", "Bad request", "a WebSocket upgrade must be an HTTP/1.1 request");
    if (!request.has_host) return problem(400, "bad-request", "Bad request", "the upgrade request has no Host field");
    if (!request.has_key || request.key.empty())
        return problem(400, "bad-request", "Bad request", "the upgrade request has no Sec-WebSocket-Key");
    if (request.key.size() > kMaxWsKeyChars)
        return problem(400, "bad-request", "Bad request", "the Sec-WebSocket-Key is longer than a 16-byte nonce in base64");
    if (!request.has_version || request.version != kWsVersion) {
        HttpResponse refused = problem(426, "upgrade-required", "Upgrade required", "only WebSocket version 13 is spoken here");
        refused.headers.emplace_back("Sec-WebSocket-Version", std::string(kWsVersion));
        return refused;
    }
    return ws_accept_key(request.key);
}

std::string ws_accept_key(std::string_view key) {
    std::string keyed(key);
    keyed += kWsGuid;
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned length = 0;
    if (EVP_Digest(keyed.data(), keyed.size(), digest.data(), &length, EVP_sha1(), nullptr) != 1) std::abort();
    std::array<unsigned char, 4 * ((EVP_MAX_MD_SIZE + 2) / 3) + 1> encoded{};  // base64 and its terminator
    const int written = EVP_EncodeBlock(encoded.data(), digest.data(), static_cast<int>(length));
    return std::string(reinterpret_cast<const char*>(encoded.data()), static_cast<std::size_t>(written));
}

// Written by the one header writer every answer uses (http_answer): a kept-alive 101 has neither
// Content-Length nor "Connection: close".
std::string ws_switching_protocols(std::string_view accept_key) {
    const std::vector<std::pair<std::string, std::string>> headers{
        {"Upgrade", "websocket"}, {"Connection", "Upgrade"}, {"Sec-WebSocket-Accept", std::string(accept_key)}};
    return answer_head({.status = 101, .content_type = {}, .headers = &headers, .content_length = 0, .keep_alive = true});
}

}  // namespace hschool::net
