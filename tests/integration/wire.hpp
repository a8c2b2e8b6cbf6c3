#pragma once
#include <filesystem>
// Shorthands for integration tests: hellos, and decoding what the server sends.
#include <gtest/gtest.h>

#include "protocol/v1.hpp"
#include "protocol/v4.hpp"
#include "server_process.hpp"
#include "server_test.hpp"
#include "ws_client.hpp"

namespace hschool::test {

namespace v1 = protocol::v1;
namespace v4 = protocol::v4;

inline protocol::Bytes arena_hello(const std::string& name = "tester") { return v1::encode(v1::Hello{v1::kVersion, name}); }
inline protocol::Bytes schools_hello(std::uint8_t locale = 0) { return v4::encode(v4::Hello{v4::kVersion, locale}); }

// The next event as a server message `decode` (a version's decode_server) reads; fails the test
// when it is anything else.
template <class Message, class Decode>
std::optional<Message> next_decoded(WsClient& client, Decode decode, const char* version, std::chrono::milliseconds timeout) {
    auto event = client.read(timeout);
    auto* frame = std::get_if<Frame>(&event);
    if (!frame) {
        ADD_FAILURE() << "expected a frame";
        return std::nullopt;
    }
    auto decoded = decode(frame->data);
    if (!decoded) {
        ADD_FAILURE() << "server sent a malformed " << version << " frame: " << protocol::describe(decoded.error());
        return std::nullopt;
    }
    return std::move(decoded).value();
}

inline std::optional<v1::ServerMessage> next_v1(WsClient& client, std::chrono::milliseconds timeout = kWait) {
    return next_decoded<v1::ServerMessage>(client, v1::decode_server, "v1", timeout);
}

inline std::optional<v4::ServerMessage> next_v4(WsClient& client, std::chrono::milliseconds timeout = kWait) {
    return next_decoded<v4::ServerMessage>(client, v4::decode_server, "v4", timeout);
}

// Reads messages from `next` until one of type M arrives (skipping others), up to a bound.
template <class M, class Next>
std::optional<M> next_of(Next next, int max_frames) {
    for (int i = 0; i < max_frames; ++i) {
        auto message = next();
        if (!message) return std::nullopt;
        if (auto* m = std::get_if<M>(&*message)) return *m;
    }
    ADD_FAILURE() << "no frame of the expected type within " << max_frames << " frames";
    return std::nullopt;
}

template <class M>
std::optional<M> next_v1_of(WsClient& client, int max_frames = 200) {
    return next_of<M>([&] { return next_v1(client); }, max_frames);
}

template <class M>
std::optional<M> next_v4_of(WsClient& client, int max_frames = 200) {
    return next_of<M>([&] { return next_v4(client); }, max_frames);
}

// The close code the server sends next, skipping frames before it.
inline std::uint16_t close_code(WsClient& client, std::chrono::milliseconds timeout = kWait) {
    auto closed = client.read_until_closed(timeout);
    return closed ? closed->code : 0;
}

// A server with no content or database of its own to worry about.
inline std::vector<std::string> isolated_server_args(const TempDir& dir) {
    std::filesystem::create_directories(dir.path() / "web");  // an explicit web root must exist
    return {"--data", (dir.path() / "hschool.db").string(), "--mods", (ServerProcess::source_dir() / "mods").string(),
            "--web-root", (dir.path() / "web").string(), "--log-level", "debug"};
}

}  // namespace hschool::test
