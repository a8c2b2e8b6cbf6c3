#pragma once
// One client WebSocket for our tools and tests, driven by an io_context its owner runs on one
// thread (every callback runs there): connect and upgrade, read one message at a time, write one
// at a time, close, or hand the socket over after the upgrade. The load generator runs thousands
// of them a thread; BlockingWs runs one with deadlines. Beast stays in async_ws.cpp.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "protocol/bytes.hpp"

namespace boost::asio {
class io_context;
}

namespace hschool::tools::ws {

// How a socket is opened and read.
struct WsOptions {
    std::size_t max_message_bytes = 64u << 20;  // a longer message from the server ends the socket
    int receive_buffer_bytes = 0;               // SO_RCVBUF before connecting (0: the kernel's); small makes back pressure come quickly
    bool no_delay = false;                      // TCP_NODELAY: a 1-byte ready or a ping must not wait for Nagle
    bool cheap_masks = false;                   // masking keys need no cryptographic strength (load generators)
    bool fragment = true;                       // long messages go out in several frames (Beast's default)
    // Beast's own timeouts (0: none): the upgrade's, and a peer silent this long is gone (with
    // keep-alive pings sent when half of it has passed).
    std::chrono::seconds handshake_timeout{0};
    std::chrono::seconds idle_timeout{0};
    bool keep_alive_pings = false;
};

// Why a connection or an upgrade failed; a refused upgrade's HTTP answer (status 0: none came).
struct WsRefusal {
    std::string error;
    bool connected = false;  // false: TCP itself failed (another address may do)
    unsigned status = 0;
    std::string body;

    // No connection at all (or none that upgraded): only why.
    static WsRefusal of(std::string error) {
        WsRefusal refusal;
        refusal.error = std::move(error);
        return refusal;
    }
};

// How a socket ended: the peer's close code and reason, or 0 and what went wrong instead.
struct WsEnd {
    std::uint16_t code = 0;
    std::string reason;
    std::string error;  // "" after a Close frame
};

class AsyncWs {
public:
    AsyncWs(boost::asio::io_context& ioc, WsOptions options = {});
    ~AsyncWs();
    AsyncWs(const AsyncWs&) = delete;
    AsyncWs& operator=(const AsyncWs&) = delete;

    // TCP to `address` (an IP literal) and `port`, then the upgrade of `target` with `host` as the
    // Host header. `done` gets nothing on success, else the refusal.
    void connect(const std::string& address, std::uint16_t port, const std::string& host, std::string target,
                 std::function<void(std::optional<WsRefusal>)> done);

    // One whole message (binary, or text), valid until the next read; or how the socket ended.
    using Read = std::function<void(protocol::ByteView message, bool binary, std::optional<WsEnd> end)>;
    void read(Read done);
    // One message at a time: the caller waits for `done` (false: the write failed) before the next.
    void write(protocol::ByteView message, bool text, std::function<void(bool ok)> done);
    // The same, blocking (an owner that runs the io_context only to read).
    bool write_now(protocol::ByteView message, bool text);

    // Stops what is pending (its callbacks see an error) without closing.
    void cancel();
    // Closes the TCP connection (no Close frame).
    void close();
    // After the upgrade: the socket's descriptor, now the caller's to read, write and close (-1 on failure).
    int release();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// A host name and port (or service) as getaddrinfo resolves them, blocking: the addresses to try in
// order, or why there are none.
struct Resolved {
    struct Address {
        std::string ip;  // a literal, for AsyncWs::connect
        std::uint16_t port = 0;
    };
    std::vector<Address> addresses;
    std::string error;
};
Resolved resolve(const std::string& host, const std::string& port);

}  // namespace hschool::tools::ws
