#include "http_client.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>

namespace hschool::load {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

namespace {
constexpr std::uint64_t kMaxResponseBodyBytes = 16 * 1024 * 1024;  // /metrics is a few KiB; anything bigger is wrong
}

HttpReply http_request(const std::string& host, std::uint16_t port, std::string_view method, std::string_view target,
                       std::string_view json_body, std::chrono::milliseconds timeout) {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    HttpReply reply;
    http::request<http::string_body> request(http::string_to_verb(method), target, 11);
    request.set(http::field::host, host + ":" + std::to_string(port));
    if (!json_body.empty()) {
        request.set(http::field::content_type, "application/json");
        request.body() = std::string(json_body);
    }
    request.prepare_payload();
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(kMaxResponseBodyBytes);
    bool ok = false;
    stream.expires_after(timeout);  // one deadline for connect, write and read together
    stream.async_connect(tcp::endpoint(net::ip::make_address(host), port), [&](beast::error_code ec) {
        if (ec) return;
        http::async_write(stream, request, [&](beast::error_code wec, std::size_t) {
            if (wec) return;
            http::async_read(stream, buffer, parser, [&](beast::error_code rec, std::size_t) { ok = !rec; });
        });
    });
    ioc.run();
    if (!ok) return reply;
    reply.status = parser.get().result_int();
    reply.body = std::move(parser.get().body());
    beast::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
    return reply;
}

}  // namespace hschool::load
