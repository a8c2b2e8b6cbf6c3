#pragma once
// One client WebSocket used blocking, each wait with its own deadline or none: the tests' client and
// the seat program's. It runs an AsyncWs on a private io_context only while it waits.
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "ws/async_ws.hpp"
#include "protocol/bytes.hpp"
#include "util/expected.hpp"

namespace hschool::tools::ws {

struct Frame {
    protocol::Bytes data;
    bool binary = true;
};
struct Closed {
    std::uint16_t code = 0;  // 0 when the peer dropped TCP without a close frame
    std::string reason;      // the peer's reason, or what went wrong
};
struct TimedOut {};
using WsEvent = std::variant<Frame, Closed, TimedOut>;

class BlockingWs {
public:
    // Resolves `host` and connects to its addresses in turn, then upgrades `target`; the refusal
    // when no address connects or the upgrade fails.
    static Expected<std::unique_ptr<BlockingWs>, WsRefusal> dial(const std::string& host, const std::string& port, const std::string& target,
                                                                 WsOptions options = {});
    ~BlockingWs();

    bool send(protocol::ByteView message, bool text = false);
    // The next message, the close, or TimedOut (after which the socket is unusable); without a
    // timeout it waits as long as it takes (the options' idle timeout still ends a silent peer).
    WsEvent read(std::optional<std::chrono::milliseconds> timeout);
    // Reads until the socket closes, skipping messages; the close, or nothing at the deadline.
    std::optional<Closed> read_until_closed(std::chrono::milliseconds timeout);

private:
    struct Impl;
    explicit BlockingWs(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace hschool::tools::ws
