#include "ws_client.hpp"

#include <boost/asio/connect.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace hschool::test {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

// Runs one asynchronous operation to completion or until the timeout; false on time-out.
bool run_for(net::io_context& ioc, bool& done, std::chrono::milliseconds timeout) {
    ioc.restart();
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done && std::chrono::steady_clock::now() < deadline) {
        ioc.run_one_for(deadline - std::chrono::steady_clock::now());
    }
    return done;
}

}  // namespace

std::unique_ptr<WsClient> WsClient::connect(std::uint16_t port, Options options) {
    tools::ws::WsOptions ws;
    ws.receive_buffer_bytes = options.receive_buffer_bytes;
    auto dialled = tools::ws::BlockingWs::dial("127.0.0.1", std::to_string(port), options.path, ws);
    if (!dialled) return nullptr;
    return std::unique_ptr<WsClient>(new WsClient(std::move(*dialled)));
}

WsClient::~WsClient() = default;

bool WsClient::send(const protocol::Bytes& frame) { return ws_->send(frame, false); }

bool WsClient::send_text(const std::string& text) {
    return ws_->send(protocol::ByteView(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()), true);
}

WsEvent WsClient::read(std::chrono::milliseconds timeout) { return ws_->read(timeout); }

std::optional<Closed> WsClient::read_until_closed(std::chrono::milliseconds timeout) { return ws_->read_until_closed(timeout); }

HttpResult http_request(std::uint16_t port, const std::string& method, const std::string& target, const std::string& body,
                        const std::map<std::string, std::string>& headers) {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    beast::error_code ec;
    stream.socket().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port), ec);
    if (ec) return {};
    http::request<http::string_body> request(http::string_to_verb(method), target, 11);
    request.set(http::field::host, "127.0.0.1");
    for (const auto& [name, value] : headers) request.set(name, value);
    request.body() = body;
    if (!body.empty() || method == "POST" || method == "PUT") request.prepare_payload();
    http::write(stream, request, ec);
    if (ec) return {};
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(64 * 1024 * 1024);
    parser.skip(method == "HEAD");
    http::read(stream, buffer, parser, ec);
    if (ec) return {};
    HttpResult result;
    const auto& response = parser.get();
    result.status = response.result_int();
    for (const auto& field : response) {
        std::string name(field.name_string());
        for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        result.headers[name] = std::string(field.value());
    }
    result.body = response.body();
    return result;
}

RawResult raw_exchange(std::uint16_t port, const std::string& bytes, std::chrono::milliseconds timeout) {
    net::io_context ioc;
    tcp::socket socket(ioc);
    RawResult result;
    beast::error_code ec;
    socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port), ec);
    if (ec) return result;
    const auto started = std::chrono::steady_clock::now();
    net::write(socket, net::buffer(bytes), ec);
    std::array<char, 4096> chunk{};
    const auto deadline = started + timeout;
    while (!result.closed_by_peer && std::chrono::steady_clock::now() < deadline) {
        bool done = false;
        std::size_t got = 0;
        beast::error_code read_ec;
        socket.async_read_some(net::buffer(chunk), [&](beast::error_code e, std::size_t n) {
            read_ec = e;
            got = n;
            done = true;
        });
        if (!run_for(ioc, done, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()))) {
            socket.cancel();
            run_for(ioc, done, 1s);
            break;
        }
        result.received.append(chunk.data(), got);
        if (read_ec) result.closed_by_peer = true;
    }
    result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
    return result;
}

}  // namespace hschool::test
