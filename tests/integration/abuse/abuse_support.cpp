#include "abuse_support.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <boost/json.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "protocol/v1.hpp"
#include "protocol/v4.hpp"

namespace hschool::test::abuse {

namespace v1 = protocol::v1;
namespace v4 = protocol::v4;

namespace {

int remaining_ms(Clock::time_point deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left <= 0 ? 0 : static_cast<int>(left);
}

sockaddr_in loopback(std::uint16_t port, const char* address = kLoopback) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    inet_pton(AF_INET, address, &addr.sin_addr);
    return addr;
}

int open_socket(const SocketOptions& options) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (options.receive_buffer > 0) setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &options.receive_buffer, sizeof options.receive_buffer);
    if (!options.source_address.empty()) {
        const sockaddr_in source = loopback(0, options.source_address.c_str());
        if (::bind(fd, reinterpret_cast<const sockaddr*>(&source), sizeof source) != 0) {
            ::close(fd);
            return -1;
        }
    }
    return fd;
}

std::string lower(std::string text) {
    for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

std::uint32_t random_mask() {
    thread_local std::mt19937 random{std::random_device{}()};
    return random();
}

std::string frame_bytes(std::uint8_t op, std::string_view payload, bool fin, std::uint64_t announced, bool with_payload) {
    std::string out;
    out.reserve(14 + (with_payload ? payload.size() : 0));
    out.push_back(static_cast<char>((fin ? 0x80 : 0x00) | (op & 0x0F)));
    if (announced < 126) {
        out.push_back(static_cast<char>(0x80 | announced));
    } else if (announced <= 0xFFFF) {
        out.push_back(static_cast<char>(0x80 | 126));
        out.push_back(static_cast<char>(announced >> 8));
        out.push_back(static_cast<char>(announced & 0xFF));
    } else {
        out.push_back(static_cast<char>(0x80 | 127));
        for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>((announced >> shift) & 0xFF));
    }
    const std::uint32_t mask = random_mask();
    const std::uint8_t key[4] = {static_cast<std::uint8_t>(mask >> 24), static_cast<std::uint8_t>(mask >> 16),
                                 static_cast<std::uint8_t>(mask >> 8), static_cast<std::uint8_t>(mask)};
    out.append(reinterpret_cast<const char*>(key), 4);
    if (with_payload) {
        for (std::size_t i = 0; i < payload.size(); ++i)
            out.push_back(static_cast<char>(static_cast<std::uint8_t>(payload[i]) ^ key[i % 4]));
    }
    return out;
}

}  // namespace

// ---- Socket ----

Socket::~Socket() { close(); }

Socket::Socket(Socket&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

Socket& Socket::operator=(Socket&& other) noexcept {
    if (this != &other) {
        close();
        fd_ = other.fd_;
        other.fd_ = -1;
    }
    return *this;
}

Socket Socket::connect(std::uint16_t port, const SocketOptions& options) {
    Socket socket(open_socket(options));
    if (!socket.valid()) return socket;
    const sockaddr_in server = loopback(port);
    if (::connect(socket.fd_, reinterpret_cast<const sockaddr*>(&server), sizeof server) != 0) socket.close();
    return socket;
}

Socket Socket::connect_nonblocking(std::uint16_t port, const SocketOptions& options) {
    Socket socket(open_socket(options));
    if (!socket.valid()) return socket;
    socket.set_nonblocking(true);
    const sockaddr_in server = loopback(port);
    if (::connect(socket.fd_, reinterpret_cast<const sockaddr*>(&server), sizeof server) != 0 && errno != EINPROGRESS)
        socket.close();
    return socket;
}

void Socket::set_nonblocking(bool on) {
    const int flags = fcntl(fd_, F_GETFL, 0);
    fcntl(fd_, F_SETFL, on ? (flags | O_NONBLOCK) : (flags & ~O_NONBLOCK));
}

bool Socket::send_all(std::string_view bytes, std::chrono::milliseconds timeout) {
    if (!valid()) return false;
    const auto deadline = Clock::now() + timeout;
    while (!bytes.empty()) {
        const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) {
            bytes.remove_prefix(static_cast<std::size_t>(n));
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            pollfd p{fd_, POLLOUT, 0};
            const int left = remaining_ms(deadline);
            if (left == 0 || ::poll(&p, 1, left) <= 0) return false;
            continue;
        }
        return false;
    }
    return true;
}

Socket::Read Socket::read_some(std::string& into, std::chrono::milliseconds timeout, std::size_t max) {
    if (!valid()) return Read::Reset;
    pollfd p{fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(timeout.count()));
    if (ready == 0) return Read::Timeout;
    if (ready < 0) return errno == EINTR ? Read::Timeout : Read::Reset;
    std::string chunk(max, '\0');
    const ssize_t n = ::recv(fd_, chunk.data(), chunk.size(), MSG_DONTWAIT);
    if (n > 0) {
        into.append(chunk.data(), static_cast<std::size_t>(n));
        return Read::Data;
    }
    if (n == 0) return Read::Eof;
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return Read::Timeout;
    return Read::Reset;
}

void Socket::shutdown_write() {
    if (valid()) ::shutdown(fd_, SHUT_WR);
}

void Socket::close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

// ---- HTTP ----

std::string HttpReply::header(const std::string& name) const {
    const auto found = headers.find(lower(name));
    return found == headers.end() ? std::string() : found->second;
}

std::optional<HttpReply> take_http_reply(std::string& buffer, bool head) {
    const auto end_of_headers = buffer.find("\r\n\r\n");
    if (end_of_headers == std::string::npos) return std::nullopt;
    HttpReply reply;
    std::istringstream lines(buffer.substr(0, end_of_headers));
    std::string line;
    std::getline(lines, line);
    if (!line.starts_with("HTTP/1.")) {
        reply.status = 0;  // not a response: the caller sees an incomplete reply with no status
        reply.body = buffer;
        buffer.clear();
        return reply;
    }
    const auto space = line.find(' ');
    if (space != std::string::npos) reply.status = static_cast<unsigned>(std::strtoul(line.c_str() + space + 1, nullptr, 10));
    while (std::getline(lines, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string value = line.substr(colon + 1);
        while (!value.empty() && value.front() == ' ') value.erase(0, 1);
        reply.headers[lower(line.substr(0, colon))] = value;
    }
    std::size_t length = 0;
    const bool no_body = head || reply.status == 101 || reply.status == 204 || reply.status == 304;
    if (!no_body) {
        const auto found = reply.headers.find("content-length");
        if (found == reply.headers.end()) {
            // Without a length the body runs to the end of the connection: not a complete reply yet.
            return std::nullopt;
        }
        length = std::strtoull(found->second.c_str(), nullptr, 10);
    }
    const std::size_t body_start = end_of_headers + 4;
    if (buffer.size() < body_start + length) return std::nullopt;
    reply.body = buffer.substr(body_start, length);
    reply.complete = true;
    buffer.erase(0, body_start + length);
    return reply;
}

HttpReply read_http_reply(Socket& socket, std::string& buffer, bool head, std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    while (true) {
        if (auto reply = take_http_reply(buffer, head)) return *reply;
        const int left = remaining_ms(deadline);
        if (left == 0) break;
        if (socket.read_some(buffer, std::chrono::milliseconds(left)) != Socket::Read::Data) break;
    }
    HttpReply partial;  // incomplete: what arrived, for the failure message
    const auto space = buffer.find(' ');
    if (buffer.starts_with("HTTP/1.") && space != std::string::npos)
        partial.status = static_cast<unsigned>(std::strtoul(buffer.c_str() + space + 1, nullptr, 10));
    partial.body = buffer;
    return partial;
}

::testing::AssertionResult is_problem(const HttpReply& reply, unsigned status) {
    if (!reply.complete) return ::testing::AssertionFailure() << "incomplete response (" << reply.body.size() << " bytes): " << reply.body.substr(0, 300);
    if (reply.status != status) return ::testing::AssertionFailure() << "status " << reply.status << ", expected " << status << ": " << reply.body.substr(0, 300);
    if (!reply.header("content-type").starts_with("application/problem+json"))
        return ::testing::AssertionFailure() << "content type '" << reply.header("content-type") << "'";
    boost::system::error_code ec;
    const auto body = boost::json::parse(reply.body, ec);
    if (ec || !body.is_object()) return ::testing::AssertionFailure() << "body is not a JSON object: " << reply.body.substr(0, 300);
    const auto* field = body.as_object().if_contains("status");
    if (!field || !field->is_int64() || field->as_int64() != static_cast<std::int64_t>(status))
        return ::testing::AssertionFailure() << "problem status member is not " << status << ": " << reply.body;
    if (!body.as_object().if_contains("title")) return ::testing::AssertionFailure() << "problem without a title: " << reply.body;
    return ::testing::AssertionSuccess();
}

// ---- WebSocket ----

std::string client_frame(std::uint8_t op, std::string_view payload, bool fin) {
    return frame_bytes(op, payload, fin, payload.size(), true);
}

std::string client_frame(std::uint8_t op, const protocol::Bytes& payload, bool fin) {
    return client_frame(op, std::string_view(reinterpret_cast<const char*>(payload.data()), payload.size()), fin);
}

std::string client_frame_header(std::uint8_t op, std::uint64_t length, bool fin) { return frame_bytes(op, {}, fin, length, false); }

std::string describe(const WsEvent& event) {
    if (const auto* message = std::get_if<WsMessage>(&event)) {
        std::ostringstream out;
        out << "message opcode " << int(message->op) << " of " << message->payload.size() << " bytes";
        if (!message->payload.empty()) out << " starting 0x" << std::hex << int(static_cast<std::uint8_t>(message->payload[0]));
        return out.str();
    }
    if (const auto* ended = std::get_if<WsEnded>(&event)) {
        switch (ended->how) {
            case WsEnded::How::CloseFrame: return "close frame " + std::to_string(ended->code) + " \"" + ended->reason + "\"";
            case WsEnded::How::Eof: return "TCP end without a close frame";
            case WsEnded::How::Reset: return "TCP reset";
            case WsEnded::How::Broken: return "malformed server frame";
        }
    }
    return "time-out";
}

Upgrade RawWs::upgrade(std::uint16_t port, const UpgradeOptions& options, std::chrono::milliseconds timeout) {
    Upgrade result;
    Socket socket = Socket::connect(port, options.socket);
    if (!socket.valid()) return result;
    std::string request = "GET " + options.path + " HTTP/1.1\r\n";
    request += "Host: " + options.host.value_or(std::string(kLoopback) + ":" + std::to_string(port)) + "\r\n";
    request += "Upgrade: websocket\r\nConnection: Upgrade\r\n";
    request += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n";
    if (options.origin) request += "Origin: " + *options.origin + "\r\n";
    request += "\r\n";
    if (!socket.send_all(request, timeout)) return result;
    std::string buffer;
    result.reply = read_http_reply(socket, buffer, false, timeout);
    if (result.reply.complete && result.reply.status == 101) {
        // The accept key of the RFC's own sample nonce.
        if (result.reply.header("sec-websocket-accept") != "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=") {
            ADD_FAILURE() << "101 with a wrong Sec-WebSocket-Accept: " << result.reply.header("sec-websocket-accept");
            return result;
        }
        result.ws = std::make_unique<RawWs>(std::move(socket), std::move(buffer));
    }
    return result;
}

std::unique_ptr<RawWs> RawWs::connect(std::uint16_t port, const UpgradeOptions& options) {
    auto upgraded = upgrade(port, options);
    if (!upgraded.ws) ADD_FAILURE() << "WebSocket upgrade refused: " << upgraded.reply.status << " " << upgraded.reply.body.substr(0, 300);
    return std::move(upgraded.ws);
}

RawWs::RawWs(Socket socket, std::string already_read) : socket_(std::move(socket)), buffer_(std::move(already_read)) {}

bool RawWs::send_raw(std::string_view bytes, std::chrono::milliseconds timeout) { return socket_.send_all(bytes, timeout); }

bool RawWs::send_close(std::uint16_t code, std::string_view reason) {
    std::string payload;
    payload.push_back(static_cast<char>(code >> 8));
    payload.push_back(static_cast<char>(code & 0xFF));
    payload.append(reason);
    return send(opcode::kClose, payload);
}

std::optional<WsEvent> RawWs::parse_one() {
    while (true) {
        if (buffer_.size() < 2) return std::nullopt;
        const auto b0 = static_cast<std::uint8_t>(buffer_[0]);
        const auto b1 = static_cast<std::uint8_t>(buffer_[1]);
        std::size_t header = 2;
        std::uint64_t length = b1 & 0x7F;
        if (b1 & 0x80) {  // servers must not mask
            ended_ = WsEnded{WsEnded::How::Broken, 0, "masked server frame"};
            return *ended_;
        }
        if (length == 126) {
            if (buffer_.size() < 4) return std::nullopt;
            length = (std::uint64_t(static_cast<std::uint8_t>(buffer_[2])) << 8) | static_cast<std::uint8_t>(buffer_[3]);
            header = 4;
        } else if (length == 127) {
            if (buffer_.size() < 10) return std::nullopt;
            length = 0;
            for (int i = 2; i < 10; ++i) length = (length << 8) | static_cast<std::uint8_t>(buffer_[static_cast<std::size_t>(i)]);
            header = 10;
        }
        if (buffer_.size() < header + length) return std::nullopt;
        std::string payload = buffer_.substr(header, static_cast<std::size_t>(length));
        buffer_.erase(0, header + static_cast<std::size_t>(length));
        const bool fin = b0 & 0x80;
        const std::uint8_t op = b0 & 0x0F;
        if (op == opcode::kClose) {
            WsEnded ended{WsEnded::How::CloseFrame, 1005, {}};
            if (payload.size() >= 2) {
                ended.code = static_cast<std::uint16_t>((static_cast<std::uint8_t>(payload[0]) << 8) | static_cast<std::uint8_t>(payload[1]));
                ended.reason = payload.substr(2);
            }
            ended_ = ended;
            return ended;
        }
        if (op == opcode::kPing) {
            ++pings_received_;
            if (auto_pong_) {
                send(opcode::kPong, payload);
                continue;
            }
            return WsMessage{op, std::move(payload)};
        }
        if (op == opcode::kPong) return WsMessage{op, std::move(payload)};
        if (op == opcode::kContinuation) {
            fragments_ += payload;
            if (!fin) continue;
            WsMessage whole{fragment_op_, std::move(fragments_)};
            fragments_.clear();
            return whole;
        }
        if (!fin) {
            fragment_op_ = op;
            fragments_ = std::move(payload);
            continue;
        }
        return WsMessage{op, std::move(payload)};
    }
}

WsEvent RawWs::read(std::chrono::milliseconds timeout) {
    if (ended_) return *ended_;
    const auto deadline = Clock::now() + timeout;
    bool looked = false;  // a zero timeout still looks at the socket once
    while (true) {
        if (auto event = parse_one()) return *event;
        const int left = remaining_ms(deadline);
        if (left == 0 && looked) return WsTimeout{};
        looked = true;
        switch (socket_.read_some(buffer_, std::chrono::milliseconds(left))) {
            case Socket::Read::Data: break;
            case Socket::Read::Timeout: return WsTimeout{};
            case Socket::Read::Eof: ended_ = WsEnded{WsEnded::How::Eof, 0, {}}; return *ended_;
            case Socket::Read::Reset: ended_ = WsEnded{WsEnded::How::Reset, 0, {}}; return *ended_;
        }
    }
}

WsEvent RawWs::read_binary(std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    while (true) {
        auto event = read(std::chrono::milliseconds(remaining_ms(deadline)));
        const auto* message = std::get_if<WsMessage>(&event);
        if (!message || message->op == opcode::kBinary) return event;
    }
}

std::optional<WsMessage> RawWs::read_until_id(std::uint8_t id, std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    while (true) {
        auto event = read_binary(std::chrono::milliseconds(remaining_ms(deadline)));
        const auto* message = std::get_if<WsMessage>(&event);
        if (!message) return std::nullopt;
        if (!message->payload.empty() && static_cast<std::uint8_t>(message->payload[0]) == id) return *message;
    }
}

std::optional<WsEnded> RawWs::read_until_end(std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    while (true) {
        auto event = read(std::chrono::milliseconds(remaining_ms(deadline)));
        if (auto* ended = std::get_if<WsEnded>(&event)) return *ended;
        if (std::holds_alternative<WsTimeout>(event)) return std::nullopt;
    }
}

bool RawWs::wait_for_tcp_end(std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    std::string discarded;
    while (true) {
        const int left = remaining_ms(deadline);
        if (left == 0) return false;
        switch (socket_.read_some(discarded, std::chrono::milliseconds(left))) {
            case Socket::Read::Data: discarded.clear(); break;
            case Socket::Read::Timeout: break;
            case Socket::Read::Eof:
            case Socket::Read::Reset: return true;
        }
    }
}

std::unique_ptr<RawWs> join(std::uint16_t port, const protocol::Bytes& hello, const UpgradeOptions& options, WsMessage* welcome) {
    auto ws = RawWs::connect(port, options);
    if (!ws) return nullptr;
    if (!ws->send_binary(hello)) {
        ADD_FAILURE() << "could not send Hello";
        return nullptr;
    }
    // Welcome is 0x81 in both versions.
    auto first = ws->read_until_id(0x81);
    if (!first) {
        ADD_FAILURE() << "no Welcome after Hello";
        return nullptr;
    }
    if (welcome) *welcome = std::move(*first);
    return ws;
}

// ---- the server from outside ----

std::vector<std::string> server_args(const TempDir& dir, const std::vector<std::string>& extra) {
    const auto web = dir.path() / "web";
    std::filesystem::create_directories(web);
    std::ofstream(web / "index.html") << "<!doctype html><title>HSchool</title>";
    std::vector<std::string> args{"--data", (dir.path() / "hschool.db").string(), "--mods", (ServerProcess::source_dir() / "mods").string(),
                                  "--web-root", web.string(), "--log-level", "info"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

std::string scrape_metrics(std::uint16_t port) {
    const auto response = http_request(port, "GET", "/metrics");
    return response.status == 200 ? response.body : std::string();
}

std::optional<double> series(const std::string& metrics, const std::string& name) {
    std::istringstream lines(metrics);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.size() > name.size() && line.starts_with(name) && line[name.size()] == ' ')
            return std::strtod(line.c_str() + name.size() + 1, nullptr);
    }
    return std::nullopt;
}

namespace {

// Calls each(line, value) for every series of the family.
template <class Each>
void for_each_series(const std::string& metrics, const std::string& family, Each each) {
    std::istringstream lines(metrics);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.size() <= family.size() || !line.starts_with(family)) continue;
        const char next = line[family.size()];
        if (next != ' ' && next != '{') continue;
        each(line, std::strtod(line.c_str() + line.rfind(' ') + 1, nullptr));
    }
}

}  // namespace

std::optional<double> family_sum(const std::string& metrics, const std::string& family) {
    std::optional<double> sum;
    for_each_series(metrics, family, [&](const std::string&, double value) { sum = sum.value_or(0) + value; });
    return sum;
}

std::string nonzero_series(const std::string& metrics, const std::string& family) {
    std::string out;
    for_each_series(metrics, family, [&](const std::string& line, double value) {
        if (value != 0) out += line + "\n";
    });
    return out;
}

std::optional<double> open_connections(std::uint16_t port, const std::string& version) {
    const auto metrics = scrape_metrics(port);
    if (metrics.empty()) return std::nullopt;
    return series(metrics, "hschool_connections{version=\"" + version + "\"}");
}

std::optional<std::size_t> steps_caught_up(std::uint16_t port) {
    const auto value = series(scrape_metrics(port), "hschool_steps_caught_up_total");
    if (!value) return std::nullopt;
    return static_cast<std::size_t>(*value);
}

std::optional<double> open_connections(std::uint16_t port) {
    const auto metrics = scrape_metrics(port);
    if (metrics.empty()) return std::nullopt;
    double total = 0;
    for (const char* version : {"none", "1", "4"}) {
        const auto value = series(metrics, std::string("hschool_connections{version=\"") + version + "\"}");
        if (!value) return std::nullopt;
        total += *value;
    }
    return total;
}

std::optional<std::size_t> rss_bytes(pid_t pid) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.starts_with("VmRSS:")) return static_cast<std::size_t>(std::strtoull(line.c_str() + 6, nullptr, 10)) * 1024;
    }
    return std::nullopt;
}

std::optional<double> cpu_seconds(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const auto after_name = text.rfind(')');  // the command name may hold spaces
    if (after_name == std::string::npos) return std::nullopt;
    std::istringstream fields(text.substr(after_name + 2));
    std::vector<std::string> values;
    std::string value;
    while (fields >> value) values.push_back(value);
    // Fields 14 and 15 of the file (utime, stime) are 11 and 12 after the state at field 3.
    if (values.size() < 13) return std::nullopt;
    const double ticks = std::stod(values[11]) + std::stod(values[12]);
    return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

std::size_t count_occurrences(std::string_view text, std::string_view needle) {
    std::size_t count = 0;
    for (auto at = text.find(needle); at != std::string_view::npos; at = text.find(needle, at + needle.size())) ++count;
    return count;
}

std::optional<std::int32_t> create_school(std::uint16_t port, const std::string& name) {
    const auto response = http_request(port, "POST", "/api/schools", boost::json::serialize(boost::json::object{{"name", name}}),
                                       {{"Content-Type", "application/json"}});
    if (response.status != 201) {
        ADD_FAILURE() << "POST /api/schools answered " << response.status << ": " << response.body;
        return std::nullopt;
    }
    boost::system::error_code ec;
    const auto body = boost::json::parse(response.body, ec);
    const auto* id = !ec && body.is_object() ? body.as_object().if_contains("id") : nullptr;
    if (!id || !id->is_int64()) {
        ADD_FAILURE() << "no id in " << response.body;
        return std::nullopt;
    }
    return static_cast<std::int32_t>(id->as_int64());
}

void nice_this_thread(int nice) { setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), nice); }

// ---- CountingClient ----

namespace {
inline constexpr auto kInputPeriod = std::chrono::microseconds(1'000'000 / 30);  // the browser client's rate
inline constexpr auto kPingPeriod = 1s;
inline constexpr auto kReadSlice = 5ms;
}  // namespace

CountingClient::~CountingClient() { stop(); }

void CountingClient::start() {
    ws_->set_auto_pong(true);
    thread_ = std::thread([this] { run(); });
}

void CountingClient::run() {
    auto next_ping = Clock::now();
    while (!stop_) {
        const auto now = Clock::now();
        send_inputs(now);
        if (now >= next_ping) {
            ws_->send_binary(ping(std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count()));
            next_ping += kPingPeriod;
        }
        auto event = ws_->read(kReadSlice);
        if (auto* ended = std::get_if<WsEnded>(&event)) {
            ended_ = *ended;
            return;
        }
        if (auto* message = std::get_if<WsMessage>(&event); message && message->op == opcode::kBinary) {
            if (const auto mark = mark_of(message->bytes())) {
                marks_.push_back(*mark);
                count_ = marks_.size();
            }
        }
    }
}

bool CountingClient::wait_for_count(std::size_t count, std::chrono::milliseconds timeout) {
    return eventually([&] { return count_.load() >= count; }, timeout, 10ms);
}

void CountingClient::stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
}

double CountingClient::delivery(std::size_t unsent) const {
    const auto span = expected();
    if (span == 0) return 0;
    std::vector<std::int64_t> distinct = marks_;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    return static_cast<double>(std::min(span, distinct.size() + unsent)) / static_cast<double>(span);
}

// ---- ArenaPlayer ----

ArenaPlayer::ArenaPlayer(std::uint16_t port, std::string name) {
    WsMessage welcome;
    ws_ = join(port, v1::encode(v1::Hello{v1::kVersion, name}), {}, &welcome);
    if (!ws_) return;
    auto decoded = v1::decode_server(welcome.bytes());
    if (!decoded || !std::holds_alternative<v1::Welcome>(decoded.value())) {
        ADD_FAILURE() << "the arena Welcome did not decode";
        return;
    }
    player_id_ = std::get<v1::Welcome>(decoded.value()).player_id;
    joined_ = true;
    next_input_ = Clock::now();
    start();
}

ArenaPlayer::~ArenaPlayer() { stop(); }  // before the thread could see this object half gone

void ArenaPlayer::send_inputs(Clock::time_point now) {
    if (now < next_input_) return;
    ++sequence_;
    ws_->send_binary(v1::encode(v1::Input{sequence_, static_cast<std::uint8_t>((sequence_ / 30) % 2 ? v1::buttons::kLeft : v1::buttons::kRight)}));
    next_input_ += kInputPeriod;
    if (next_input_ < now) next_input_ = now + kInputPeriod;
}

protocol::Bytes ArenaPlayer::ping(std::int64_t client_time_ms) const { return v1::encode(v1::Ping{client_time_ms}); }

std::optional<std::int64_t> ArenaPlayer::mark_of(const protocol::Bytes& frame) {
    auto decoded = v1::decode_server(frame);
    if (!decoded) return std::nullopt;
    auto* snapshot = std::get_if<v1::Snapshot>(&decoded.value());
    if (!snapshot) return std::nullopt;
    return snapshot->tick;
}

std::size_t ArenaPlayer::expected() const {
    if (marks_.empty()) return 0;
    const auto [low, high] = std::minmax_element(marks_.begin(), marks_.end());
    return static_cast<std::size_t>(*high - *low) + 1;
}

// ---- SchoolWatcher ----

namespace {
inline constexpr double kGameMsPerRealSecondAtX1 = 5 * 60 * 1000;  // gameMinutesPerRealSecond = 5
inline constexpr double kSpeedFactor[] = {0.5, 1, 2, 3, 4};
}  // namespace

SchoolWatcher::SchoolWatcher(std::uint16_t port, std::int32_t school_id) : school_id_(school_id) {
    ws_ = RawWs::connect(port);
    if (!ws_) return;
    if (!ws_->send_binary(v4::encode(v4::Hello{v4::kVersion, 0}))) return;
    auto welcome = ws_->read_until_id(v4::id::kWelcome);
    if (!welcome) {
        ADD_FAILURE() << "no v4 Welcome";
        return;
    }
    auto decoded = v4::decode_server(welcome->bytes());
    if (!decoded) return;
    tick_rate_ = std::get<v4::Welcome>(decoded.value()).tick_rate;
    if (!ws_->send_binary(v4::encode(v4::OpenSchool{school_id}))) return;
    if (!ws_->read_until_id(v4::id::kMapSnapshot)) {
        ADD_FAILURE() << "no MapSnapshot for school " << school_id;
        return;
    }
    opened_ = true;
    start();
}

SchoolWatcher::~SchoolWatcher() { stop(); }  // before the thread could see this object half gone

protocol::Bytes SchoolWatcher::ping(std::int64_t client_time_ms) const { return v4::encode(v4::Ping{client_time_ms}); }

std::optional<std::int64_t> SchoolWatcher::mark_of(const protocol::Bytes& frame) {
    auto decoded = v4::decode_server(frame);
    if (!decoded) return std::nullopt;
    auto* clock = std::get_if<v4::Clock>(&decoded.value());
    if (!clock || clock->school_id != school_id_) return std::nullopt;
    speeds_.push_back(clock->speed_index);
    return clock->game_time_ms;
}

std::size_t SchoolWatcher::expected() const {
    if (marks_.empty() || tick_rate_ == 0 || speeds_.front() >= std::size(kSpeedFactor)) return 0;
    const double step = kGameMsPerRealSecondAtX1 * kSpeedFactor[speeds_.front()] / tick_rate_;
    const auto [low, high] = std::minmax_element(marks_.begin(), marks_.end());
    return static_cast<std::size_t>(std::llround(static_cast<double>(*high - *low) / step)) + 1;
}

}  // namespace hschool::test::abuse
