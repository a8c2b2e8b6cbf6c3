#pragma once
// The tests' blocking WebSocket client (the tools' one, tools/ws/blocking_ws.hpp, on the server's
// loopback port) and their HTTP and raw TCP clients. Beast stays in the .cpp files.
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "ws/blocking_ws.hpp"
#include "protocol/bytes.hpp"
#include "wait.hpp"

namespace hschool::test {

using namespace std::chrono_literals;

using tools::ws::Closed;
using tools::ws::Frame;
using tools::ws::TimedOut;
using tools::ws::WsEvent;

class WsClient {
public:
    struct Options {
        std::string path = "/ws/game";
        int receive_buffer_bytes = 0;  // small values make back pressure come quickly
    };
    // Connects and completes the WebSocket handshake; nullptr when that fails.
    static std::unique_ptr<WsClient> connect(std::uint16_t port, Options options);
    static std::unique_ptr<WsClient> connect(std::uint16_t port) { return connect(port, Options{}); }
    ~WsClient();

    bool send(const protocol::Bytes& frame);
    bool send_text(const std::string& text);
    // The next frame, the close, or TimedOut (after which the client is unusable).
    WsEvent read(std::chrono::milliseconds timeout = kWait);
    // Reads until the connection closes, skipping frames; the close code, or nothing on time-out.
    std::optional<Closed> read_until_closed(std::chrono::milliseconds timeout = kWait);

private:
    explicit WsClient(std::unique_ptr<tools::ws::BlockingWs> ws) : ws_(std::move(ws)) {}
    std::unique_ptr<tools::ws::BlockingWs> ws_;
};

struct HttpResult {
    unsigned status = 0;  // 0 when there was no response
    std::map<std::string, std::string> headers;  // names in lower case
    std::string body;
};

// One request on a fresh connection.
HttpResult http_request(std::uint16_t port, const std::string& method, const std::string& target,
                        const std::string& body = "", const std::map<std::string, std::string>& headers = {});

// Sends raw bytes on a fresh TCP connection and returns what comes back until the peer closes or
// the timeout passes, with how long that took.
struct RawResult {
    std::string received;
    bool closed_by_peer = false;
    std::chrono::milliseconds elapsed{0};
};
RawResult raw_exchange(std::uint16_t port, const std::string& bytes, std::chrono::milliseconds timeout);

}  // namespace hschool::test
