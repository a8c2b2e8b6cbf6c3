#include "loopback_http.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace hschool::tools::hns {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

std::optional<std::string> loopback_get(std::uint16_t port, const std::string& target, std::chrono::milliseconds timeout) {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    beast::error_code ec;
    stream.expires_after(timeout);
    stream.connect(tcp::endpoint(net::ip::address_v4::loopback(), port), ec);
    if (ec) return std::nullopt;
    http::request<http::empty_body> request{http::verb::get, target, 11};
    request.set(http::field::host, "127.0.0.1:" + std::to_string(port));
    request.set(http::field::connection, "close");
    http::write(stream, request, ec);
    if (ec) return std::nullopt;
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(kMaxLoopbackAnswerBytes);
    http::read(stream, buffer, parser, ec);
    stream.socket().shutdown(tcp::socket::shutdown_both, ec);
    if (!parser.is_done() || parser.get().result() != http::status::ok) return std::nullopt;
    return parser.release().body();
}

}  // namespace hschool::tools::hns
