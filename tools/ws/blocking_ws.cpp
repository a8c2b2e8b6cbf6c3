#include "ws/blocking_ws.hpp"

#include <boost/asio/io_context.hpp>

namespace hschool::tools::ws {

using namespace std::chrono_literals;

namespace {

// Runs the context until `done`, or until `timeout` passes (none: as long as there is work); false then.
bool run_until(boost::asio::io_context& ioc, const bool& done, std::optional<std::chrono::milliseconds> timeout) {
    ioc.restart();
    if (!timeout) {
        while (!done && ioc.run_one() > 0) {
        }
        return done;
    }
    const auto deadline = std::chrono::steady_clock::now() + *timeout;
    while (!done && std::chrono::steady_clock::now() < deadline) ioc.run_one_for(deadline - std::chrono::steady_clock::now());
    return done;
}

}  // namespace

struct BlockingWs::Impl {
    explicit Impl(WsOptions options) : ws(ioc, std::move(options)) {}
    boost::asio::io_context ioc;
    AsyncWs ws;
    bool broken = false;
};

BlockingWs::BlockingWs(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
BlockingWs::~BlockingWs() = default;

Expected<std::unique_ptr<BlockingWs>, WsRefusal> BlockingWs::dial(const std::string& host, const std::string& port, const std::string& target,
                                                                  WsOptions options) {
    const Resolved resolved = resolve(host, port);
    if (resolved.addresses.empty()) return unexpected(WsRefusal::of(resolved.error));
    WsRefusal last;
    for (const auto& address : resolved.addresses) {
        auto impl = std::make_unique<Impl>(options);
        bool done = false;
        std::optional<WsRefusal> refused;
        impl->ws.connect(address.ip, address.port, host + ":" + port, target, [&](std::optional<WsRefusal> r) {
            refused = std::move(r);
            done = true;
        });
        run_until(impl->ioc, done, std::nullopt);
        if (done && !refused) return std::unique_ptr<BlockingWs>(new BlockingWs(std::move(impl)));
        last = refused ? std::move(*refused) : WsRefusal::of("the connection did not finish");
        if (last.connected) break;  // the server answered: another address would say the same
    }
    return unexpected(std::move(last));
}

bool BlockingWs::send(protocol::ByteView message, bool text) { return impl_->ws.write_now(message, text); }

WsEvent BlockingWs::read(std::optional<std::chrono::milliseconds> timeout) {
    Impl& i = *impl_;
    if (i.broken) return Closed{0, "connection already failed"};
    bool done = false;
    WsEvent event = TimedOut{};
    i.ws.read([&](protocol::ByteView message, bool binary, std::optional<WsEnd> end) {
        done = true;
        if (end) event = Closed{end->code, end->error.empty() ? end->reason : end->error};
        else event = Frame{protocol::Bytes(message.begin(), message.end()), binary};
    });
    if (!run_until(i.ioc, done, timeout)) {
        i.broken = true;
        i.ws.cancel();
        run_until(i.ioc, done, 1s);
        return TimedOut{};
    }
    if (std::holds_alternative<Closed>(event)) i.broken = true;
    return event;
}

std::optional<Closed> BlockingWs::read_until_closed(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return std::nullopt;
        auto event = read(left);
        if (auto* closed = std::get_if<Closed>(&event)) return *closed;
        if (std::holds_alternative<TimedOut>(event)) return std::nullopt;
    }
}

}  // namespace hschool::tools::ws
