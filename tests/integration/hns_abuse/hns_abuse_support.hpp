#pragma once
// What the hide-and-seek abuse tests share: a match of six burrow bots made over REST, Sprite v1
// sockets from chosen loopback addresses, and the metrics they read.
#include <boost/json.hpp>

#include <cstdlib>
#include <optional>
#include <string>

#include "abuse_support.hpp"
#include "hns/hns_client.hpp"

namespace hschool::test::hns_abuse {

using namespace abuse;
namespace sv = protocol::sprite_v1;

// A match that plays at once: six burrow bots; `config` adds keys (e.g. longer hunts).
inline std::string create_bot_match(std::uint16_t port, const std::string& variant, const std::string& config = "{}") {
    return hns::create_match(port, R"({"variant":")" + variant + R"(","bots":6,"config":)" + config + "}");
}

// A certification match of bots played to its end (closed 1000), for the replay's viewers: its id, or
// "" (and a test failure) when it was not made or did not end.
inline std::string played_out_bot_match(std::uint16_t port) {
    const std::string id = create_bot_match(port, "certification");
    EXPECT_FALSE(id.empty()) << "no match was made";
    if (id.empty()) return {};
    const auto code = hns::play_out(port, id);
    EXPECT_EQ(code, std::optional<std::uint16_t>(1000));
    return code == std::optional<std::uint16_t>(1000) ? id : std::string();
}

// A Sprite v1 socket (no Hello) from 127.0.0.<host>. It answers Pings as it reads, as browsers and
// WebSocket libraries do: the server learns from the Pongs how far behind the reader is.
inline std::unique_ptr<RawWs> sprite_socket(std::uint16_t port, const std::string& path, int host = 1, int receive_buffer = 0) {
    UpgradeOptions options;
    options.path = path;
    options.socket.source_address = "127.0.0." + std::to_string(host);
    options.socket.receive_buffer = receive_buffer;
    auto ws = RawWs::connect(port, options);
    if (ws) ws->set_auto_pong(true);
    return ws;
}

// GCC says AddressSanitizer with a macro, clang (the sanitizer build) with __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define HSCHOOL_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HSCHOOL_TEST_ASAN 1
#endif
#endif

// For tests that bound the server's RSS. Under AddressSanitizer freed memory waits in a quarantine
// (256 MB by default) and shows in RSS; a small one keeps RSS about the server's own memory.
inline ServerProcess::Launch rss_launch() {
    ServerProcess::Launch launch;
#if defined(HSCHOOL_TEST_ASAN)
    const char* inherited = std::getenv("ASAN_OPTIONS");
    std::string options = inherited ? inherited : "";
    launch.env.emplace_back("ASAN_OPTIONS", options + (options.empty() ? "" : ":") + "quarantine_size_mb=16");
#endif
    return launch;
}

inline bool send_text_key(RawWs& ws, const std::string& key) { return ws.send_binary(hns::text_message(key)); }

inline double counter(std::uint16_t port, const std::string& series_name) {
    return series(scrape_metrics(port), series_name).value_or(-1);
}

inline bool is_global_header(const std::string& payload) {
    const auto& h = hns::kGlobalHeader;
    return payload.size() >= h.size() &&
           std::equal(h.begin(), h.end(), payload.begin(), [](std::uint8_t a, char b) { return a == static_cast<std::uint8_t>(b); });
}

}  // namespace hschool::test::hns_abuse
