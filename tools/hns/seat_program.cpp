// The seat program's socket: tools/ws's client, blocking.
#include "seat_program.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "protocol/close_codes.hpp"
#include "numeric_seat.hpp"
#include "policy_http.hpp"
#include "seat_session.hpp"
#include "wire_seats.hpp"
#include "ws/blocking_ws.hpp"
#include "ws/ws_url.hpp"

namespace hschool::tools::hns {

using ws::BlockingWs;
using ws::WsUrl;

namespace {

inline constexpr std::size_t kMaxOrderFileBytes = 1 << 20;      // orders are a few hundred bytes each
inline constexpr std::size_t kMaxGameMessageBytes = 64 << 20;   // a frame is far smaller
inline constexpr auto kIdleTimeout = std::chrono::seconds(30);   // a game that says nothing this long is gone
inline constexpr std::size_t kMaxRefusalChars = 200;             // of a refused handshake's body, for the log
inline constexpr std::size_t kMaxNoOrderReasonBytes = 120;       // of a numeric failure, in the reply that carries no order

sh::Expected<std::unique_ptr<BlockingWs>> dial_once(const WsUrl& url) {
    using R = sh::Expected<std::unique_ptr<BlockingWs>>;
    ws::WsOptions options;
    options.max_message_bytes = kMaxGameMessageBytes;
    options.handshake_timeout = std::chrono::seconds(10);
    options.idle_timeout = kIdleTimeout;
    options.keep_alive_pings = true;
    auto dialled = BlockingWs::dial(url.host, url.port, url.target, options);
    if (dialled) return R::ok(std::move(*dialled));
    // A refused seat says why (the game's 403/409 texts), so a league log shows it.
    const ws::WsRefusal& refused = dialled.error();
    std::string body = refused.body.substr(0, kMaxRefusalChars);
    while (!body.empty() && (body.back() == '\n' || body.back() == '\r')) body.pop_back();
    std::string error = refused.error;
    if (refused.status != 0) error += " (HTTP " + std::to_string(refused.status) + (body.empty() ? "" : ": " + body) + ")";
    return R::fail(std::move(error));
}

std::unique_ptr<BlockingWs> dial(const WsUrl& url, int attempts) {
    std::string last;
    for (int attempt = 0; attempt < attempts; ++attempt) {
        auto socket = dial_once(url);
        if (socket) return std::move(*socket);
        if (attempt == 0 || socket.error != last)
            std::fprintf(stderr, "hschool-hns seat: game not accepting the seat yet (%s); retrying\n", socket.error.c_str());
        last = socket.error;
        std::this_thread::sleep_for(std::chrono::milliseconds(kSeatRetryMs));
    }
    return nullptr;
}

// The orders of an external seat: from a JSON-lines file (one per decision, the last repeating),
// or from stdin with each decision written to stdout; none (a scripted seat) when `from` is empty.
sh::Expected<SeatSession::OrderSource> order_source(const std::string& from) {
    using R = sh::Expected<SeatSession::OrderSource>;
    if (from.empty()) return R::ok(nullptr);
    if (from == "-") {
        return R::ok([](const std::string& decision) -> std::optional<std::string> {
            std::cout << decision << '\n' << std::flush;
            std::string line;
            if (!std::getline(std::cin, line) || line.empty()) return std::nullopt;
            return line;
        });
    }
    std::ifstream in(from, std::ios::binary);
    if (!in) return R::fail("cannot read " + from);
    auto lines = std::make_shared<std::vector<std::string>>();
    std::size_t bytes = 0;
    for (std::string line; std::getline(in, line);) {
        bytes += line.size() + 1;
        if (bytes > kMaxOrderFileBytes) return R::fail(from + " is over 1 MiB");
        if (!line.empty()) lines->push_back(std::move(line));
    }
    if (lines->empty()) return R::fail(from + " holds no order");
    auto next = std::make_shared<std::size_t>(0);
    return R::ok([lines, next](const std::string&) -> std::optional<std::string> {
        const std::size_t i = std::min(*next, lines->size() - 1);
        ++*next;
        return (*lines)[i];
    });
}

bool send_all(BlockingWs& socket, const std::vector<protocol::Bytes>& messages) {
    for (const auto& m : messages)
        if (!socket.send(m)) return false;
    return true;
}

std::string env_or(const std::string& given, std::initializer_list<const char*> names) {
    if (!given.empty()) return given;
    for (const char* name : names)
        if (const char* value = std::getenv(name); value != nullptr && *value != '\0') return value;
    return {};
}

// Each decision: the values and mask to the policy service, its chosen order back. A failure is
// logged and answered with text that holds no order, so the server falls back for that turn at
// once (its replay records the fallback) instead of waiting out the turn's deadline.
std::string no_order(std::string reason) {
    std::erase_if(reason, [](char c) { return c == '{' || c == '}'; });
    if (reason.size() > kMaxNoOrderReasonBytes) reason.resize(kMaxNoOrderReasonBytes);
    return "no order: " + reason;
}

SeatSession::OrderSource numeric_source(const std::string& url, const std::string& key) {
    std::random_device device;
    const std::string session = "hns:" + std::to_string(::getpid()) + ":" +
                                std::to_string(std::chrono::duration_cast<std::chrono::seconds>(
                                                   std::chrono::system_clock::now().time_since_epoch()).count()) +
                                ":" + std::to_string(device());
    return [url, key, session](const std::string& decision) -> std::optional<std::string> {
        auto ask = numeric_ask(decision, session);
        if (!ask) {
            std::fprintf(stderr, "hschool-hns seat: numeric: %s\n", ask.error.c_str());
            return no_order(ask.error);
        }
        const auto reply = post_policy(url, key, ask->body, ask->timeout_seconds);
        if (!reply) {
            std::fprintf(stderr, "hschool-hns seat: numeric policy: %s\n", reply.error.c_str());
            return no_order(reply.error);
        }
        auto order = numeric_order(*ask, reply->status, reply->body);
        if (!order) {
            std::fprintf(stderr, "hschool-hns seat: %s\n", order.error.c_str());
            return no_order(order.error);
        }
        return *order;
    };
}

}  // namespace

sh::Expected<std::string> read_prompt_file(const std::string& path) {
    using R = sh::Expected<std::string>;
    std::ifstream in(path, std::ios::binary);
    if (!in) return R::fail("cannot read " + path);
    // No more than one registration's worth is read: a larger file is refused below anyway.
    std::string text;
    text.resize(kMaxRegistrationBytes + 1);
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    SeatPolicy policy;
    policy.prompt = text;
    if (registration_text(policy).size() > kMaxRegistrationBytes)
        return R::fail(path + " is too long: a registration with its prompt must fit " + std::to_string(kMaxRegistrationBytes) + " bytes");
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) return R::fail(path + " holds no prompt");
    return R::ok(std::move(text));
}

int run_seat(const SeatOptions& given) {
    SeatOptions options = given;
    options.url = env_or(options.url, {"COWORLD_PLAYER_WS_URL", "COGAMES_ENGINE_WS_URL"});
    options.numeric_url = env_or(options.numeric_url, {"PLAYER_NUMERIC_URL"});
    options.numeric_key = env_or(options.numeric_key, {"PLAYER_NUMERIC_KEY"});
    options.label = env_or(options.label, {"PLAYER_POLICY_LABEL"});
    if (options.url.empty()) {
        std::fprintf(stderr, "hschool-hns seat: no --url and no COWORLD_PLAYER_WS_URL\n");
        return 2;
    }
    const auto url = ws::parse_ws_url(options.url);
    if (!url) {
        std::fprintf(stderr, "hschool-hns seat: --url: %s\n", url.error().c_str());
        return 2;
    }
    if (options.scripted != "burrow" && options.scripted != "scatter" && options.scripted != "teacher") {
        std::fprintf(stderr, "hschool-hns seat: --scripted must be burrow, scatter or teacher\n");
        return 2;
    }
    if (!options.builtin.empty() && options.builtin != "idle" && options.builtin != "random") {
        std::fprintf(stderr, "hschool-hns seat: --builtin must be idle or random\n");
        return 2;
    }
    if ((!options.builtin.empty()) + (!options.external_orders.empty()) + (!options.prompt_file.empty()) + (!options.numeric_url.empty()) > 1) {
        std::fprintf(stderr, "hschool-hns seat: choose exactly one player policy mode (--builtin, --external-orders, --prompt-file, "
                             "--numeric-url)\n");
        return 2;
    }
    if (!options.numeric_url.empty() && options.numeric_url.rfind("http://", 0) != 0 && options.numeric_url.rfind("https://", 0) != 0) {
        std::fprintf(stderr, "hschool-hns seat: the numeric policy's URL must start with http:// or https://\n");
        return 2;
    }
    auto orders = order_source(options.external_orders);
    if (!orders) {
        std::fprintf(stderr, "hschool-hns seat: --external-orders: %s\n", orders.error.c_str());
        return 2;
    }
    SeatSession::OrderSource source = std::move(*orders);
    SeatPolicy policy;
    policy.scripted = options.scripted;
    policy.external = !options.external_orders.empty();
    policy.label = options.label;
    if (options.builtin == "idle") {
        policy.manual = true;  // never a 0x84: every mask is 0, as the headless idle seat's
    } else if (options.builtin == "random") {
        policy.external = true;
        source = [seed = options.seed](const std::string& decision) { return random_order_json(decision, seed); };
    }
    if (!options.builtin.empty() && policy.label.empty()) policy.label = options.builtin;
    if (!options.numeric_url.empty()) {
        policy.external = true;
        source = numeric_source(options.numeric_url, options.numeric_key);
        if (policy.label.empty()) policy.label = "numeric";
    }
    if (!options.prompt_file.empty()) {
        auto prompt = read_prompt_file(options.prompt_file);
        if (!prompt) {
            std::fprintf(stderr, "hschool-hns seat: --prompt-file: %s\n", prompt.error.c_str());
            return 2;
        }
        policy.prompt = std::move(*prompt);
    }
    SeatSession session(policy, std::move(source));

    auto socket = dial(*url, options.connect_attempts);
    if (!socket) {
        std::fprintf(stderr, "hschool-hns seat: the game never accepted a connection\n");
        return 1;
    }
    std::fprintf(stderr, "hschool-hns seat: connected (%s)\n", registration_text(policy).c_str());
    for (int reconnects = 0;;) {
        bool open = send_all(*socket, session.on_open());
        ws::Closed closed;
        while (open) {
            auto event = socket->read(std::nullopt);
            auto* frame = std::get_if<ws::Frame>(&event);
            if (!frame) {
                if (auto* end = std::get_if<ws::Closed>(&event)) closed = *end;
                break;
            }
            const std::string data(frame->data.begin(), frame->data.end());
            open = send_all(*socket, session.on_message(!frame->binary, data));
        }
        std::fprintf(stderr, "hschool-hns seat: socket closed (code %u %s) after %d frames, %d orders\n", static_cast<unsigned>(closed.code),
                     closed.code != 0 ? closed.reason.c_str() : "", session.session_frames(), session.orders_sent());
        // The match is over (its close), the game is winding down (no frame this session), or the
        // re-dials ran out: leave cleanly either way; the runner waits on our exit.
        if (closed.code == protocol::close_code::kNormal || session.session_frames() == 0 || reconnects >= kSeatReconnectAttempts) break;
        ++reconnects;
        std::fprintf(stderr, "hschool-hns seat: re-dialling the seat (attempt %d)\n", reconnects);
        socket = dial(*url, kSeatReconnectAttempts);
        if (!socket) {
            std::fprintf(stderr, "hschool-hns seat: the game is no longer listening\n");
            break;
        }
    }
    return 0;
}

}  // namespace hschool::tools::hns
