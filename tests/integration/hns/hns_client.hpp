#pragma once
// What the hide-and-seek integration tests share: the match REST, raw upgrade requests (to read
// 403 texts), Sprite v1 sockets and their messages, and a match played to its end quickly.
#include <boost/json.hpp>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "protocol/sprite_v1.hpp"
#include "sim/hns/replay.hpp"
#include "wire.hpp"

namespace hschool::test::hns {

namespace sv = protocol::sprite_v1;
namespace json = boost::json;

// A server with the default match off the way (its own data folder, debug logs).
inline std::vector<std::string> hns_server_args(const TempDir& dir, std::vector<std::string> extra) {
    auto args = isolated_server_args(dir);
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}
inline std::vector<std::string> hns_server_args(const TempDir& dir) { return hns_server_args(dir, {}); }

inline json::value parse(const std::string& text) {
    json::error_code ec;
    auto value = json::parse(text, ec);
    return ec ? json::value(nullptr) : value;
}

// The JSON records of one kind ("k") that seats wrote into a replay's chat: directives, fallbacks...
inline std::vector<json::object> chat_records(const std::string& replay, const char* kind) {
    std::vector<json::object> out;
    auto data = sim::hns::parse_replay(replay);
    if (!data) return out;
    for (const auto& chat : data->chats) {
        auto value = parse(chat.message);
        if (value.is_object() && value.as_object().contains("k") && value.as_object().at("k") == kind) out.push_back(value.as_object());
    }
    return out;
}

// POST /api/hns/matches; the new match's id, or "" (with the answer in `failure`).
inline std::string create_match(std::uint16_t port, const std::string& body, HttpResult* failure = nullptr) {
    const auto response = http_request(port, "POST", "/api/hns/matches", body, {{"Content-Type", "application/json"}});
    if (response.status != 201) {
        if (failure) *failure = response;
        return "";
    }
    const auto value = parse(response.body);
    return value.is_object() ? std::string(value.as_object().at("id").as_string()) : "";
}

inline json::object match_json(std::uint16_t port, const std::string& id) {
    const auto response = http_request(port, "GET", "/api/hns/matches/" + id);
    const auto value = parse(response.body);
    return response.status == 200 && value.is_object() ? value.as_object() : json::object{};
}

inline std::int64_t match_tick(std::uint16_t port, const std::string& id) {
    const auto m = match_json(port, id);
    const auto* tick = m.if_contains("tick");
    return tick && tick->is_int64() ? tick->as_int64() : -1;
}

// A WebSocket upgrade as plain HTTP: the status and text of a refusal.
inline HttpResult upgrade_request(std::uint16_t port, const std::string& target) {
    return http_request(port, "GET", target, "",
                        {{"Connection", "Upgrade"},
                         {"Upgrade", "websocket"},
                         {"Sec-WebSocket-Version", "13"},
                         {"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="}});
}

inline std::unique_ptr<WsClient> open_socket(std::uint16_t port, const std::string& target) {
    WsClient::Options options;
    options.path = target;
    return WsClient::connect(port, options);
}

inline protocol::Bytes text_message(const std::string& text) { return sv::encode(sv::ClientMessage{sv::InputText{text}}); }
inline protocol::Bytes mask_message(std::uint8_t mask) { return sv::encode(sv::ClientMessage{sv::PlayerInput{mask}}); }
inline protocol::Bytes ready_message() { return {sv::id::kPlayerReady}; }

// The next binary message (text frames, e.g. decisions, are returned in `texts` when given).
inline std::optional<protocol::Bytes> next_binary(WsClient& ws, std::vector<std::string>* texts = nullptr,
                                                 std::chrono::milliseconds timeout = kWait) {
    for (;;) {
        auto event = ws.read(timeout);
        auto* frame = std::get_if<Frame>(&event);
        if (!frame) return std::nullopt;
        if (frame->binary) return frame->data;
        if (texts) texts->emplace_back(frame->data.begin(), frame->data.end());
    }
}

// The next text message (a decision), skipping binary frames.
inline std::optional<std::string> next_text(WsClient& ws, std::chrono::milliseconds timeout = kWait) {
    for (;;) {
        auto event = ws.read(timeout);
        auto* frame = std::get_if<Frame>(&event);
        if (!frame) return std::nullopt;
        if (!frame->binary) return std::string(frame->data.begin(), frame->data.end());
    }
}

inline std::vector<sv::ServerMessage> decode(const protocol::Bytes& message) {
    auto decoded = sv::decode_server(message);
    return decoded ? *decoded : std::vector<sv::ServerMessage>{};
}

template <class M>
std::vector<M> all_of(const std::vector<sv::ServerMessage>& messages) {
    std::vector<M> out;
    for (const auto& m : messages)
        if (auto* x = std::get_if<M>(&m)) out.push_back(*x);
    return out;
}

inline std::optional<sv::DefineObject> object_of(const std::vector<sv::ServerMessage>& messages, std::uint16_t id) {
    for (const auto& o : all_of<sv::DefineObject>(messages))
        if (o.object_id == id) return o;
    return std::nullopt;
}

inline bool starts_with(const protocol::Bytes& bytes, const std::vector<std::uint8_t>& prefix) {
    return bytes.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), bytes.begin());
}

inline const std::vector<std::uint8_t> kPlayerHeader{0x04, 0x06, 0x00, 0x00, 0x01, 0x05, 0x00, 0xD0, 0x02, 0x90, 0x01};
inline const std::vector<std::uint8_t> kGlobalHeader{0x04, 0x06, 0x00, 0x00, 0x01, 0x05, 0x00, 0xA0, 0x05, 0x20, 0x03};

inline int decisions_seen(const std::vector<std::string>& texts) {
    int n = 0;
    for (const auto& t : texts) n += t.find("\"type\":\"decision\"") != std::string::npos;
    return n;
}

// A match watched at 16 ticks per frame ends in seconds on a quiet machine (a 40-turn hunt in ~10 s).
inline constexpr std::chrono::milliseconds kPlayOutDeadline = 300s;

// Watches the match on /global at 16 ticks per frame until it ends; the close code (1000 when
// the match finished), or nothing when it did not end in time.
inline std::optional<std::uint16_t> play_out(std::uint16_t port, const std::string& id, std::chrono::milliseconds timeout = kPlayOutDeadline) {
    auto global = open_socket(port, "/global?match=" + id);
    if (!global || !global->send(text_message("6"))) return std::nullopt;
    auto closed = global->read_until_closed(timeout);
    if (!closed) return std::nullopt;
    return closed->code;
}

// A port nobody listens on right now (the drop-in server takes its port from COGAME_PORT).
inline std::uint16_t free_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    ::close(fd);
    return ntohs(addr.sin_port);
}

inline std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The replay of a finished match, as downloaded.
inline std::string download_replay(std::uint16_t port, const std::string& id) {
    const auto response = http_request(port, "GET", "/api/hns/matches/" + id + "/replay");
    return response.status == 200 ? response.body : "";
}

}  // namespace hschool::test::hns
