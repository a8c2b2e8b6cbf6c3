#pragma once
// A stand-in for the league's model sidecar, for the prompt-seat tests (issue 21): a small HTTP
// server on 127.0.0.1 in the test process that answers POSTs the way the Messages API does, from a
// script the test writes per request. The model is outside our server, so faking it is the test's
// job; it keeps every request it saw and the most requests it held at once (how parallel the
// server's batch really was, counted, not timed).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace hschool::test::hns {

struct ModelRequest {
    int index = -1;  // 0-based arrival order (-1 while the script answers it)
    std::string method, path;
    std::map<std::string, std::string> headers;  // names in lower case
    std::string body;
    int slot = -1;       // X-Coworld-Player-Slot, -1 if absent
    std::string user;    // the user message's text
    boost::json::object view;  // the seat's view inside it (empty if none parsed)
    bool retry = false;  // the user message asks again after an unusable answer
};

struct ModelReply {
    int status = 200;
    std::string body;
    std::chrono::milliseconds delay{0};  // held this long (or until the fake stops) before answering
    int hold_until_in_flight = 0;        // held until this many requests are in flight (at most 5 s)
};

// A Messages API answer with one text block.
inline std::string messages_answer(const std::string& text, const std::string& stop_reason = "end_turn") {
    boost::json::object o;
    o["id"] = "msg_test";
    o["type"] = "message";
    o["role"] = "assistant";
    o["content"] = boost::json::array{boost::json::object{{"type", "text"}, {"text", text}}};
    o["stop_reason"] = stop_reason;
    return boost::json::serialize(o);
}

class FakeModel {
public:
    using Script = std::function<ModelReply(const ModelRequest&)>;
    static constexpr int kMaxConnections = 512;  // a runaway server cannot make the test spin forever

    explicit FakeModel(Script script) : script_(std::move(script)) {
        listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        const int yes = 1;
        ::setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        if (::bind(listener_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(listener_, 64) != 0) return;
        socklen_t len = sizeof addr;
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&addr), &len);
        port_ = ntohs(addr.sin_port);
        acceptor_ = std::thread([this] { accept_loop(); });
    }
    ~FakeModel() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        changed_.notify_all();
        ::shutdown(listener_, SHUT_RDWR);
        ::close(listener_);
        if (acceptor_.joinable()) acceptor_.join();
        for (auto& t : workers_) t.join();
    }
    FakeModel(const FakeModel&) = delete;
    FakeModel& operator=(const FakeModel&) = delete;

    std::uint16_t port() const { return port_; }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
    std::vector<ModelRequest> requests() {
        std::lock_guard lock(mutex_);
        return requests_;
    }
    int max_in_flight() {
        std::lock_guard lock(mutex_);
        return max_in_flight_;
    }
    int in_flight() {
        std::lock_guard lock(mutex_);
        return in_flight_;
    }

private:
    void accept_loop() {
        for (int n = 0; n < kMaxConnections; ++n) {
            const int fd = ::accept(listener_, nullptr, nullptr);
            if (fd < 0) return;
            std::lock_guard lock(mutex_);
            if (stopping_) {
                ::close(fd);
                return;
            }
            workers_.emplace_back([this, fd] { serve(fd); });
        }
    }

    static std::string lower(std::string s) {
        for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return s;
    }

    // Reads one request (headers, then Content-Length bytes); false on a short or huge one.
    static bool read_request(int fd, ModelRequest& r) {
        std::string data;
        char buf[8192];
        std::size_t head_end = std::string::npos;
        std::size_t need = 0;
        for (;;) {
            if (head_end == std::string::npos) {
                head_end = data.find("\r\n\r\n");
                if (head_end != std::string::npos) {
                    std::size_t line_end = data.find("\r\n");
                    const std::string first = data.substr(0, line_end);
                    r.method = first.substr(0, first.find(' '));
                    r.path = first.substr(first.find(' ') + 1, first.rfind(' ') - first.find(' ') - 1);
                    for (std::size_t at = line_end + 2; at < head_end;) {
                        const std::size_t end = data.find("\r\n", at);
                        const std::string line = data.substr(at, end - at);
                        const std::size_t colon = line.find(':');
                        if (colon != std::string::npos) {
                            std::string value = line.substr(colon + 1);
                            while (!value.empty() && value.front() == ' ') value.erase(0, 1);
                            r.headers[lower(line.substr(0, colon))] = value;
                        }
                        at = end + 2;
                    }
                    need = r.headers.count("content-length") ? std::stoul(r.headers["content-length"]) : 0;
                }
            }
            if (head_end != std::string::npos && data.size() >= head_end + 4 + need) {
                r.body = data.substr(head_end + 4, need);
                return true;
            }
            if (data.size() > (4 << 20)) return false;
            const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
            if (n <= 0) return false;
            data.append(buf, static_cast<std::size_t>(n));
        }
    }

    static void describe(ModelRequest& r) {
        if (auto it = r.headers.find("x-coworld-player-slot"); it != r.headers.end()) r.slot = std::atoi(it->second.c_str());
        boost::json::error_code ec;
        auto body = boost::json::parse(r.body, ec);
        if (ec || !body.is_object()) return;
        const auto* messages = body.as_object().if_contains("messages");
        if (!messages || !messages->is_array() || messages->as_array().empty()) return;
        const auto* content = messages->as_array()[0].as_object().if_contains("content");
        if (!content || !content->is_string()) return;
        r.user = std::string(content->as_string());
        r.retry = r.user.find("could not be used") != std::string::npos;
        const std::size_t at = r.user.find("{\"you\"");
        if (at == std::string::npos) return;
        boost::json::stream_parser p;
        p.write_some(r.user.data() + at, r.user.size() - at, ec);
        if (!ec && p.done()) {
            auto view = p.release();
            if (view.is_object()) r.view = view.as_object();
        }
    }

    void serve(int fd) {
        ModelRequest request;
        if (!read_request(fd, request)) {
            ::close(fd);
            return;
        }
        describe(request);
        const ModelReply reply = script_(request);
        {
            std::unique_lock lock(mutex_);
            request.index = static_cast<int>(requests_.size());
            requests_.push_back(request);
            ++in_flight_;
            max_in_flight_ = std::max(max_in_flight_, in_flight_);
            // Sticky: every request that came before the count was reached goes too, even if one of
            // them answers (and leaves) before the others wake.
            if (in_flight_ >= reply.hold_until_in_flight) released_upto_ = static_cast<int>(requests_.size());
            changed_.notify_all();
            if (reply.hold_until_in_flight > 0)
                changed_.wait_for(lock, std::chrono::seconds(5), [&] { return stopping_ || released_upto_ > request.index; });
            if (reply.delay.count() > 0) changed_.wait_for(lock, reply.delay, [&] { return stopping_; });
        }
        const std::string head = "HTTP/1.1 " + std::to_string(reply.status) + " Test\r\nContent-Type: application/json\r\nContent-Length: " +
                                 std::to_string(reply.body.size()) + "\r\nConnection: close\r\n\r\n";
        const std::string all = head + reply.body;
        (void)::send(fd, all.data(), all.size(), MSG_NOSIGNAL);
        {
            std::lock_guard lock(mutex_);
            --in_flight_;
        }
        changed_.notify_all();
        ::shutdown(fd, SHUT_WR);
        ::close(fd);
    }

    Script script_;
    int listener_ = -1;
    std::uint16_t port_ = 0;
    std::thread acceptor_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<std::thread> workers_;
    std::vector<ModelRequest> requests_;
    int in_flight_ = 0;
    int max_in_flight_ = 0;
    int released_upto_ = 0;  // requests [0, released_upto_) are past their hold
    bool stopping_ = false;
};

}  // namespace hschool::test::hns
