// HTTP on an accepted connection: one request at a time with named limits; the router answers,
// WebSocket upgrades become sessions once their path's endpoint, the origin and the caps allow.

#include <boost/asio/dispatch.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>

#include "net/http_answer.hpp"
#include "net/http_router.hpp"
#include "net/network_thread.hpp"
#include "net/origin_policy.hpp"
#include "net/ws_handshake.hpp"
#include "net/ws_session.hpp"
#include "util/log.hpp"

namespace hschool::net {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;

namespace {

inline constexpr std::size_t kHttpDrainChunkBytes = 8 * 1024;
inline constexpr std::uint64_t kHttpFileChunkBytes = 64 * 1024;  // a file answer's read and write step

WsHandshakeRequest handshake_request_of(const http::request<http::string_body>& request) {
    WsHandshakeRequest handshake;
    handshake.http_version = request.version();
    handshake.has_host = request.count(http::field::host) > 0;
    if (const auto key = request.find(http::field::sec_websocket_key); key != request.end()) {
        handshake.has_key = true;
        handshake.key = key->value();
    }
    if (const auto version = request.find(http::field::sec_websocket_version); version != request.end()) {
        handshake.has_version = true;
        handshake.version = version->value();
    }
    return handshake;
}

class HttpSession : public std::enable_shared_from_this<HttpSession> {
public:
    HttpSession(tcp::socket&& socket, NetworkShared& shared, NetworkThread& thread)
        : stream_(std::move(socket)), shared_(shared), thread_(thread), opened_(std::chrono::steady_clock::now()) {}

    void run() {
        beast::error_code ec;
        const auto remote = stream_.socket().remote_endpoint(ec);
        if (ec) return shutdown();
        switch (shared_.http_limiter.try_admit(remote.address().to_string(), http_slot_)) {
            case ConnectionLimiter::Admission::Admitted: break;
            case ConnectionLimiter::Admission::TotalCapReached:
                return asio::dispatch(stream_.get_executor(), [self = shared_from_this()] {
                    self->refuse(503, "http_total", "server-full", "Server full", "the server has no room for more connections; try again later");
                });
            case ConnectionLimiter::Admission::AddressCapReached:
                return asio::dispatch(stream_.get_executor(), [self = shared_from_this()] {
                    self->refuse(503, "http_per_ip", "too-many-connections", "Too many connections",
                                 "this address has too many open connections; close one and try again");
                });
        }
        asio::dispatch(stream_.get_executor(), beast::bind_front_handler(&HttpSession::do_read, shared_from_this()));
    }

private:
    void do_read() {
        parser_.emplace();
        parser_->header_limit(kMaxHttpHeaderBytes);
        parser_->body_limit(kMaxHttpBodyBytes);
        head_ = false;  // each request says for itself whether it is HEAD
        stream_.expires_after(requests_served_ == 0 ? kHttpRequestTimeout : kHttpKeepAliveIdle);
        http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
    }

    void on_read(beast::error_code ec, std::size_t) {
        if (ec == http::error::end_of_stream) return shutdown();
        if (ec == http::error::body_limit) {
            return send_and_close(problem(413, "payload-too-large", "Payload too large",
                                          "request bodies are limited to " + std::to_string(kMaxHttpBodyBytes) + " bytes"));
        }
        if (ec == http::error::header_limit) {
            return send_and_close(problem(431, "headers-too-large", "Request header fields too large",
                                          "request headers are limited to " + std::to_string(kMaxHttpHeaderBytes) + " bytes"));
        }
        if (ec == beast::error::timeout) return shutdown();  // a slow client gets cut off, no answer
        if (ec) {
            if (buffer_.size() == 0 && !parser_->got_some()) return shutdown();
            return send_and_close(problem(400, "bad-request", "Bad request", ec.message()));
        }
        auto request = parser_->release();
        if (websocket::is_upgrade(request)) return upgrade(std::move(request));
        keep_alive_ = request.keep_alive();
        head_ = request.method() == http::verb::head;
        HttpRequest plain;
        plain.method = std::string(request.method_string());
        const std::string_view target = request.target();
        const auto question = target.find('?');
        if (!percent_decode(target.substr(0, question), plain.path) || plain.path.empty() || plain.path.front() != '/') {
            return send_and_close(problem(400, "bad-request", "Bad request", "malformed request target"));
        }
        if (question != std::string_view::npos) plain.query = std::string(target.substr(question + 1));
        std::string content_type(request[http::field::content_type]);
        content_type = content_type.substr(0, content_type.find(';'));
        while (!content_type.empty() && content_type.back() == ' ') content_type.pop_back();
        for (auto& c : content_type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        plain.content_type = std::move(content_type);
        plain.body = std::move(request.body());
        plain.origin = std::string(request[http::field::origin]);
        plain.host = std::string(request[http::field::host]);
        plain.authorization = std::string(request[http::field::authorization]);
        beast::error_code remote_ec;
        const auto remote = stream_.socket().remote_endpoint(remote_ec);
        if (!remote_ec) plain.remote = remote.address().to_string();
        // The handler may answer from another thread (the loop); the answer comes back to this
        // connection's thread, unless that thread has already shut (then the answer is dropped).
        shared_.router.handle(plain, [self = shared_from_this()](HttpResponse response) {
            NetworkThread& thread = self->thread_;
            thread.post([self = std::move(self), response = std::move(response)]() mutable { self->send(std::move(response)); });
        });
    }

    // The endpoint of the path decides, in this order: its own check (a malformed credential),
    // then the origin and the connection caps, then whether it takes the connection.
    void upgrade(http::request<http::string_body> request) {
        auto handshake = ws_handshake_accept(handshake_request_of(request));
        if (auto* refused = std::get_if<HttpResponse>(&handshake)) return send_and_close(std::move(*refused));
        const std::string_view target = request.target();
        const auto question = target.find('?');
        const WsEndpoint* endpoint = shared_.endpoints.find(target.substr(0, question));
        if (!endpoint) return send_and_close(problem(404, "not-found", "Not found", shared_.endpoints.not_found_detail()));
        beast::error_code ec;
        const auto remote = stream_.socket().remote_endpoint(ec);
        if (ec) return shutdown();
        const WsUpgrade upgrade{target.substr(0, question),
                                question == std::string_view::npos ? std::string_view() : target.substr(question + 1),
                                remote.address().to_string()};
        if (endpoint->check)
            if (auto refused = endpoint->check(upgrade)) return send_and_close(std::move(*refused));
        if (!origin_allowed(request[http::field::origin], request[http::field::host], shared_.config.allowed_origins)) {
            return refuse(403, "origin", "forbidden-origin", "Forbidden origin", "WebSocket connections from this origin are not allowed");
        }
        ConnectionLimiter::Slot slot;
        switch (shared_.limiter.try_admit(upgrade.address, slot)) {
            case ConnectionLimiter::Admission::TotalCapReached:
                return refuse(503, "total", "server-full", "Server full", "the server has no room for more connections; try again later");
            case ConnectionLimiter::Admission::AddressCapReached:
                return refuse(503, "per_ip", "too-many-connections", "Too many connections",
                              "this address has too many open connections; close one and try again");
            case ConnectionLimiter::Admission::Admitted: break;
        }
        auto accepted = endpoint->accept(upgrade);
        if (auto* refused = std::get_if<HttpResponse>(&accepted)) return send_and_close(std::move(*refused));
        stream_.expires_never();
        http_slot_.release();  // a WebSocket counts against its own caps
        start_ws_session(stream_.release_socket(), std::get<std::string>(std::move(handshake)), shared_, thread_, std::move(slot), *endpoint,
                         std::get<std::shared_ptr<WsHandler>>(std::move(accepted)));
    }

    void refuse(unsigned status, const char* reason, std::string_view code, std::string_view title, std::string_view detail) {
        shared_.metrics.connection_refused(reason);
        if (const auto skipped = shared_.refused_log.allow(std::chrono::steady_clock::now()))
            logging::info("event=ws_refused reason={} similar_events_not_logged={}", reason, *skipped);
        HttpResponse response = problem(status, code, title, detail);
        if (status == 503) response.headers.emplace_back("Retry-After", "5");
        send_and_close(std::move(response));
    }

    void send_and_close(HttpResponse response) {
        keep_alive_ = false;
        send(std::move(response));
    }

    void send(HttpResponse response) {
        if (!response.file.empty()) return send_file(std::move(response));
        shared_.metrics.http_request(response.status);
        // A connection does not live for ever: past its lifetime or request count it is closed after this answer.
        if (requests_served_ + 1 >= kHttpMaxRequestsPerConnection || std::chrono::steady_clock::now() - opened_ >= kHttpConnectionLifetime)
            keep_alive_ = false;
        answer_.head = answer_head({response.status, response.content_type, &response.headers, response.body.size(), keep_alive_});
        // HEAD keeps GET's Content-Length and sends no body; nor do 1xx, 204 and 304.
        answer_.body = head_ || status_has_no_body(response.status) ? std::string() : std::move(response.body);
        stream_.expires_after(kHttpRequestTimeout);
        write_answer();
    }

    // A file, read in chunks as the socket takes them: a 64 MiB replay is never held whole.
    void send_file(HttpResponse response) {
        std::error_code size_ec;
        const std::uint64_t size = std::filesystem::file_size(response.file, size_ec);
        answer_.file.open(response.file, std::ios::binary);
        if (size_ec || !answer_.file.is_open()) {
            answer_ = {};
            logging::warn("event=file_unreadable path=\"{}\" error=\"{}\"", response.file, size_ec ? size_ec.message() : "cannot open");
            return send(problem(503, "store-unavailable", "Service unavailable", "the file could not be read; try again"));
        }
        shared_.metrics.http_request(response.status);
        if (std::chrono::steady_clock::now() - opened_ >= kHttpConnectionLifetime) keep_alive_ = false;
        answer_.head = answer_head({response.status, response.content_type, &response.headers, size, keep_alive_});
        answer_.body.clear();
        answer_.file_left = head_ ? 0 : size;  // HEAD: the file's Content-Length, no body
        stream_.expires_after(kHttpFileWriteTimeout);
        write_answer();
    }

    // The head and what follows it (a string body, or a file's next chunk); then on_written.
    void write_answer() {
        const std::array<asio::const_buffer, 2> buffers{asio::buffer(answer_.head), asio::buffer(answer_.body)};
        asio::async_write(stream_, buffers, beast::bind_front_handler(&HttpSession::on_written, shared_from_this()));
    }

    void on_written(beast::error_code ec, std::size_t) {
        if (ec) return shutdown();
        answer_.head.clear();
        if (answer_.file_left > 0) {
            const auto chunk = static_cast<std::size_t>(std::min<std::uint64_t>(answer_.file_left, kHttpFileChunkBytes));
            answer_.body.resize(chunk);
            answer_.file.read(answer_.body.data(), static_cast<std::streamsize>(chunk));
            if (static_cast<std::size_t>(answer_.file.gcount()) != chunk) {  // shrunk or unreadable: the length promised cannot be kept
                logging::warn("event=file_unreadable error=\"short read after {} bytes left\"", answer_.file_left);
                answer_ = {};
                return shutdown();
            }
            answer_.file_left -= chunk;
            return write_answer();
        }
        answer_ = {};  // the body and the file go now, not with the next answer
        on_answered(ec, !keep_alive_);
    }

    void on_answered(beast::error_code ec, bool close_after) {
        if (ec) return shutdown();
        if (close_after) return linger();
        ++requests_served_;
        do_read();
    }

    // After an answer that ends the connection, the client may still be sending (a 413's body):
    // closing with its bytes unread would reset the connection and could lose our answer. So end
    // our side, then read and discard a bounded amount until the client closes too.
    void linger() {
        shutdown();
        stream_.expires_after(kHttpDrainTimeout);
        drain_buffer_ = std::make_unique<std::array<char, kHttpDrainChunkBytes>>();
        drain_read();
    }

    void drain_read() {
        stream_.async_read_some(asio::buffer(*drain_buffer_), [self = shared_from_this()](beast::error_code ec, std::size_t bytes) {
            self->drained_ += bytes;
            if (ec || self->drained_ > kMaxHttpDrainBytes) return;  // the session goes, and the socket with it
            self->drain_read();
        });
    }

    void shutdown() {
        beast::error_code ec;
        stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    }

    // The answer on its way: its head, then a string body or a file's chunks.
    struct Answer {
        std::string head;
        std::string body;
        std::ifstream file;
        std::uint64_t file_left = 0;
    };

    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    Answer answer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    NetworkShared& shared_;
    NetworkThread& thread_;
    std::unique_ptr<std::array<char, kHttpDrainChunkBytes>> drain_buffer_;  // only while lingering
    std::size_t drained_ = 0;
    bool keep_alive_ = true;
    bool head_ = false;
    int requests_served_ = 0;
    const std::chrono::steady_clock::time_point opened_;
    ConnectionLimiter::Slot http_slot_;  // this connection's place under the HTTP caps
};

}  // namespace

void start_http_session(tcp::socket&& socket, NetworkShared& shared, NetworkThread& thread) {
    std::make_shared<HttpSession>(std::move(socket), shared, thread)->run();
}

}  // namespace hschool::net
