#include "ws/async_ws.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket.hpp>

namespace hschool::tools::ws {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;

struct AsyncWs::Impl {
    Impl(net::io_context& ioc, WsOptions o) : ws(ioc), options(std::move(o)) {}
    websocket::stream<tcp::socket> ws;
    const WsOptions options;
    beast::flat_buffer buffer;
    websocket::response_type answer;  // the upgrade's, kept for a refusal's body
};

AsyncWs::AsyncWs(net::io_context& ioc, WsOptions options) : impl_(std::make_unique<Impl>(ioc, std::move(options))) {}
AsyncWs::~AsyncWs() = default;

void AsyncWs::connect(const std::string& address, std::uint16_t port, const std::string& host, std::string target,
                      std::function<void(std::optional<WsRefusal>)> done) {
    Impl& i = *impl_;
    beast::error_code ec;
    const auto ip = net::ip::make_address(address, ec);
    if (ec) return done(WsRefusal::of("bad address " + address + ": " + ec.message()));
    const tcp::endpoint endpoint(ip, port);
    auto& socket = i.ws.next_layer();
    if (i.options.receive_buffer_bytes > 0) {
        socket.open(endpoint.protocol(), ec);
        if (ec) return done(WsRefusal::of(ec.message()));
        socket.set_option(net::socket_base::receive_buffer_size(i.options.receive_buffer_bytes), ec);
    }
    i.ws.read_message_max(i.options.max_message_bytes);
    i.ws.binary(true);
    i.ws.auto_fragment(i.options.fragment);
    if (i.options.cheap_masks) i.ws.secure_prng(false);
    socket.async_connect(endpoint, [this, host, target = std::move(target), done = std::move(done)](beast::error_code cec) mutable {
        Impl& c = *impl_;
        if (cec) return done(WsRefusal::of(cec.message()));
        beast::error_code ignored;
        if (c.options.no_delay) c.ws.next_layer().set_option(tcp::no_delay(true), ignored);
        if (c.options.handshake_timeout.count() > 0 || c.options.idle_timeout.count() > 0) {
            websocket::stream_base::timeout timeouts = websocket::stream_base::timeout::suggested(beast::role_type::client);
            timeouts.handshake_timeout = c.options.handshake_timeout.count() > 0 ? c.options.handshake_timeout : websocket::stream_base::none();
            timeouts.idle_timeout = c.options.idle_timeout.count() > 0 ? c.options.idle_timeout : websocket::stream_base::none();
            timeouts.keep_alive_pings = c.options.keep_alive_pings;
            c.ws.set_option(timeouts);
        }
        c.ws.async_handshake(c.answer, host, target, [this, done = std::move(done)](beast::error_code hec) {
            if (!hec) return done(std::nullopt);
            const auto& answer = impl_->answer;
            done(WsRefusal{hec.message(), true, answer.result_int(), answer.body()});
        });
    });
}

void AsyncWs::read(Read done) {
    Impl& i = *impl_;
    i.buffer.consume(i.buffer.size());
    i.ws.async_read(i.buffer, [this, done = std::move(done)](beast::error_code ec, std::size_t) {
        Impl& r = *impl_;
        if (ec == websocket::error::closed) return done({}, false, WsEnd{r.ws.reason().code, std::string(r.ws.reason().reason.c_str()), ""});
        if (ec) return done({}, false, WsEnd{0, "", ec.message()});
        const auto data = r.buffer.cdata();
        done(protocol::ByteView(static_cast<const std::uint8_t*>(data.data()), data.size()), r.ws.got_binary(), std::nullopt);
    });
}

void AsyncWs::write(protocol::ByteView message, bool text, std::function<void(bool)> done) {
    Impl& i = *impl_;
    i.ws.text(text);
    i.ws.async_write(net::buffer(message.data(), message.size()), [done = std::move(done)](beast::error_code ec, std::size_t) { done(!ec); });
}

bool AsyncWs::write_now(protocol::ByteView message, bool text) {
    Impl& i = *impl_;
    beast::error_code ec;
    i.ws.text(text);
    i.ws.write(net::buffer(message.data(), message.size()), ec);
    i.ws.binary(true);
    return !ec;
}

void AsyncWs::cancel() {
    beast::error_code ignored;
    impl_->ws.next_layer().cancel(ignored);
}

void AsyncWs::close() {
    beast::error_code ignored;
    impl_->ws.next_layer().close(ignored);
}

int AsyncWs::release() {
    beast::error_code ec;
    const int fd = impl_->ws.next_layer().release(ec);
    return ec ? -1 : fd;
}

Resolved resolve(const std::string& host, const std::string& port) {
    net::io_context ioc;
    tcp::resolver resolver(ioc);
    beast::error_code ec;
    const auto found = resolver.resolve(host, port, ec);
    Resolved out;
    if (ec) {
        out.error = ec.message();
        return out;
    }
    for (const auto& entry : found) out.addresses.push_back({entry.endpoint().address().to_string(), entry.endpoint().port()});
    if (out.addresses.empty()) out.error = "no address for " + host;
    return out;
}

}  // namespace hschool::tools::ws
