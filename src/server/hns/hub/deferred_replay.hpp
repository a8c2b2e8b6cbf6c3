#pragma once
// A /replay viewer whose file is read and re-stepped on the hub's worker, not on the network thread
// that upgraded it (a replay is up to 64 MiB); it holds its place in the viewer budget for as long
// as its socket lives. Messages sent before the viewer is ready wait for it, as many as the viewer's
// own key queue holds; more close the socket as a key flood does.
#include <functional>
#include <memory>
#include <mutex>
#include <utility>
#include <variant>
#include <vector>

#include "net/connection_limiter.hpp"
#include "net/ws_connection.hpp"
#include "protocol/bytes.hpp"
#include "server/hns/contract/admission.hpp"

namespace hschool::server::hns {

class DeferredReplay final : public net::WsHandler, public std::enable_shared_from_this<DeferredReplay> {
public:
    using Open = std::function<std::variant<Rejection, std::shared_ptr<net::WsHandler>>()>;  // on the worker
    using Submit = std::function<bool(std::function<void()>)>;
    DeferredReplay(Open open, Submit submit, net::ConnectionLimiter::Slot slot)
        : open_(std::move(open)), submit_(std::move(submit)), slot_(std::move(slot)) {}

    void on_open(std::shared_ptr<net::WsConnection> connection) override;
    void on_message(protocol::ByteView message, bool text) override;
    void on_closed() override;

private:
    void load();

    const Open open_;
    const Submit submit_;
    net::ConnectionLimiter::Slot slot_;  // the network thread only
    std::mutex mutex_;
    std::shared_ptr<net::WsConnection> connection_;
    std::shared_ptr<net::WsHandler> viewer_;
    std::vector<std::pair<protocol::Bytes, bool>> early_;  // messages before the viewer was ready
    bool closed_ = false;
};

}  // namespace hschool::server::hns
