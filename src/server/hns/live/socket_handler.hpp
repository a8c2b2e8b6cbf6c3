#pragma once
// One socket of a live match, on its network thread: decodes what the client sends (Sprite v1),
// closes it for what the protocol refuses, and posts the rest to the match's inbox as events.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "net/connection_limiter.hpp"
#include "net/ws_connection.hpp"
#include "server/hns/live/match_event.hpp"

namespace hschool::server::hns {

class SocketHandler final : public net::WsHandler {
public:
    SocketHandler(std::weak_ptr<MatchInbox> match, int socket, Endpoint endpoint, bool controls, bool compact = false)
        : match_(std::move(match)), socket_(socket), endpoint_(endpoint), controls_(controls), compact_(compact) {}
    // A viewer's place in the match's viewer budget, given back when the socket ends.
    void hold(std::shared_ptr<net::ConnectionLimiter> limiter, net::ConnectionLimiter::Slot slot);

    void on_open(std::shared_ptr<net::WsConnection> connection) override;
    void on_message(protocol::ByteView message, bool text) override;
    void on_closed() override;

private:
    // 0x86 bytes are counted per frame of the match (the reference's 32 KiB per player per tick).
    bool within_debug_allowance(std::size_t bytes);
    void refuse(std::uint16_t code, const std::string& reason);
    void post(MatchEvent event);

    std::weak_ptr<MatchInbox> match_;
    const int socket_;
    const Endpoint endpoint_;
    const bool controls_;
    const bool compact_;  // a spectator that asked for the compact stream
    std::weak_ptr<net::WsConnection> connection_;
    std::atomic<bool> closed_{false};
    std::uint64_t debug_frame_ = 0;  // network thread only
    std::size_t debug_bytes_ = 0;
    std::shared_ptr<net::ConnectionLimiter> limiter_;  // outlives slot_ (declared first, destroyed last)
    net::ConnectionLimiter::Slot slot_;
};

}  // namespace hschool::server::hns
