#pragma once
// The WebSocket paths a server answers, each registered by the game that owns it (issue 32): an
// endpoint checks an upgrade before the 101 and returns the handler of the connection, or the
// answer that refuses it. The transport looks the path up, checks the origin and the connection
// caps, and carries the connection; it knows no path of its own.
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "net/http_types.hpp"
#include "net/ws_connection.hpp"

namespace hschool::net {

struct WsUpgrade {
    std::string_view path;
    std::string_view query;  // after '?', undecoded
    std::string address;     // the client's address, for per-address budgets
};

using WsAccept = std::variant<HttpResponse, std::shared_ptr<WsHandler>>;

struct WsEndpoint {
    // Before the origin and cap checks (optional): an upgrade the endpoint refuses from anyone (a
    // malformed credential in the query) gets this answer.
    std::function<std::optional<HttpResponse>(const WsUpgrade&)> check;
    // After them: the connection's handler, or the answer that refuses it (status and text).
    std::function<WsAccept(const WsUpgrade&)> accept;
    // What a connection speaks from the start (its limits and its tag for /metrics).
    WsProtocol protocol{};
    // Nonzero: the protocol opens with a greeting; until the handler calls WsConnection::speak the
    // connection has this long, then it is closed 1008 with `greeting_deadline_reason`. Zero: it
    // speaks `protocol` at once, and pings start.
    std::chrono::milliseconds greeting_within{0};
    const char* greeting_deadline_reason = "";
};

class WsEndpoints {
public:
    void add(std::string path, WsEndpoint endpoint) { endpoints_[std::move(path)] = std::move(endpoint); }
    const WsEndpoint* find(std::string_view path) const {
        const auto it = endpoints_.find(std::string(path));
        return it == endpoints_.end() ? nullptr : &it->second;
    }
    // The 404 problem's detail for an upgrade on any other path.
    void set_not_found_detail(std::string detail) { not_found_detail_ = std::move(detail); }
    const std::string& not_found_detail() const { return not_found_detail_; }

private:
    std::map<std::string, WsEndpoint> endpoints_;
    std::string not_found_detail_ = "no WebSocket endpoint at this path";
};

}  // namespace hschool::net
