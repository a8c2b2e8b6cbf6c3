// Replay-server mode (COGAME_LOAD_REPLAY_URI): the replay is verified at start (a bad or unreadable
// one is a failed start naming why), then served on /replay with no ?match=, seekable, with the
// spec's ?uri= answers; the controls answer 409 and no match runs or can be made.
#include "league_support.hpp"
#include "sim/hns/replay.hpp"

namespace hschool::test::league {
namespace {

std::string vector_replay() { return read_file(ServerProcess::source_dir() / "tests/vectors/hns/cert_formula.cowldhns"); }

ServerProcess::Launch replay_launch(const std::filesystem::path& replay, std::uint16_t port) {
    ServerProcess::Launch launch;
    launch.env = {{"COGAME_LOAD_REPLAY_URI", "file://" + replay.string()}, {"COGAME_HOST", "127.0.0.1"}, {"COGAME_PORT", std::to_string(port)}};
    return launch;
}

json::object chrome_of(const protocol::Bytes& message) {
    for (const auto& sprite : all_of<sv::DefineSprite>(decode(message)))
        if (sprite.sprite_id == 4090) return parse(sprite.label).as_object();
    return {};
}

// Frames until the chrome says `tick` (and `paused`, when asked); false if it never does.
bool chrome_reaches(WsClient& ws, std::int64_t tick, bool paused) {
    for (int i = 0; i < 120; ++i) {
        auto message = next_binary(ws, nullptr);
        if (!message) return false;
        const auto c = chrome_of(*message);
        if (c.contains("t") && c.at("t").as_int64() == tick && (!paused || c.at("paused") == true)) return true;
    }
    return false;
}

TEST(HnsReplayMode, ServesTheLoadedReplayAsTheRunnerChecksIt) {
    TempDir dir;
    const auto replay = dir.path() / "episode.cowldhns";
    std::ofstream(replay, std::ios::binary) << vector_replay();
    const std::uint16_t port = free_port();
    ServerProcess server(isolated_server_args(dir), replay_launch(replay, port));
    ASSERT_TRUE(server.started()) << server.output();

    // The runner's replay check: /healthz, /client/replay, a non-empty first /replay message.
    EXPECT_EQ(http_request(port, "GET", "/healthz").body, "healthy");
    EXPECT_EQ(http_request(port, "GET", "/client/replay").status, 200U);
    auto viewer = open_socket(port, "/replay");
    ASSERT_TRUE(viewer);
    auto first = next_binary(*viewer, nullptr);
    ASSERT_TRUE(first);
    EXPECT_FALSE(first->empty());
    EXPECT_TRUE(starts_with(*first, kGlobalHeader));
    // Seekable, forwards and back, with the transport keys.
    ASSERT_TRUE(viewer->send(text_message("P")));
    ASSERT_TRUE(viewer->send(text_message("s:500")));
    EXPECT_TRUE(chrome_reaches(*viewer, 500, true)) << "never showed tick 500, paused";
    ASSERT_TRUE(viewer->send(text_message("s:100")));
    EXPECT_TRUE(chrome_reaches(*viewer, 100, true));

    // ?uri= names the replay: only the loaded one is readable.
    EXPECT_TRUE(open_socket(port, "/replay?uri=file://" + replay.string()));
    const auto missing = upgrade_request(port, "/replay?uri=");
    EXPECT_EQ(missing.status, 400U);
    EXPECT_EQ(missing.body, "missing replay uri\n");
    for (const std::string& other : std::vector<std::string>{"file:///etc/passwd", "file://" + replay.string() + ".other", "https://example.com/r"}) {
        const auto refused = upgrade_request(port, "/replay?uri=" + other);
        EXPECT_EQ(refused.status, 404U) << other;
        EXPECT_EQ(refused.body, "replay uri is not readable\n");
    }
    EXPECT_EQ(upgrade_request(port, "/replay?name=x").status, 403U);

    // No live match: the controls are off, nothing can be created, nobody can take a seat.
    for (const char* control : {"/control/restart", "/control/kick?identity=x"}) {
        const auto refused = http_request(port, "POST", control);
        EXPECT_EQ(refused.status, 409U);
        EXPECT_EQ(refused.body, "match controls are disabled for replays\n");
    }
    HttpResult created;
    EXPECT_EQ(create_match(port, "{}", &created), "");
    EXPECT_EQ(created.status, 409U);
    EXPECT_TRUE(parse(http_request(port, "GET", "/api/hns/matches").body).as_object().at("matches").as_array().empty());
    EXPECT_EQ(upgrade_request(port, "/player?slot=0").status, 404U);
    EXPECT_EQ(upgrade_request(port, "/global").status, 404U);
    // The replay viewers' budget holds here too: eight sockets per address, the ninth is refused.
    std::vector<std::unique_ptr<WsClient>> viewers;
    viewer.reset();
    for (int i = 0; i < 8; ++i) {
        // The sockets closed above give their places back as their closes are processed.
        std::unique_ptr<WsClient> ws;
        eventually([&] { return (ws = open_socket(port, "/replay")) != nullptr; });
        ASSERT_TRUE(ws) << "viewer " << i;
        viewers.push_back(std::move(ws));
    }
    const auto ninth = upgrade_request(port, "/replay");
    EXPECT_EQ(ninth.status, 429U);
    EXPECT_EQ(ninth.body, "too many replay viewers from this address\n");
    viewers.clear();
    // It serves until SIGTERM, then stops cleanly.
    EXPECT_EQ(server.stop(SIGTERM), 0);
}

TEST(HnsReplayMode, ABadReplayIsAFailedStartNamingTheFirstBadTick) {
    TempDir dir;
    std::string bytes = vector_replay();
    auto data = sim::hns::parse_replay(bytes);
    ASSERT_TRUE(data);
    const auto bad = dir.path() / "bad.cowldhns";
    {
        // Flip one bit of the hash record of tick 300 in place: type 0x01, u32 tick, u64 hash.
        const std::string needle = std::string("\x01", 1) + std::string("\x2c\x01\x00\x00", 4);
        const auto at = bytes.find(needle);
        ASSERT_NE(at, std::string::npos);
        bytes[at + 5] = static_cast<char>(bytes[at + 5] ^ 0x01);
        std::ofstream(bad, std::ios::binary) << bytes;
    }
    ServerProcess server(isolated_server_args(dir), replay_launch(bad, free_port()));
    EXPECT_FALSE(server.started());
    EXPECT_EQ(server.start_exit_status(), 1);
    EXPECT_NE(server.output().find("hash mismatch at tick 300"), std::string::npos) << server.output();
}

TEST(HnsReplayMode, AnUnreadableOrForeignFileIsAFailedStart) {
    TempDir dir;
    ServerProcess missing(isolated_server_args(dir), replay_launch(dir.path() / "nothing-here", free_port()));
    EXPECT_FALSE(missing.started());
    EXPECT_EQ(missing.start_exit_status(), 1);
    EXPECT_NE(missing.output().find("cannot read"), std::string::npos) << missing.output();

    const auto garbage = dir.path() / "garbage.cowldhns";
    std::ofstream(garbage, std::ios::binary) << std::string(5000, '\x7f');
    ServerProcess foreign(isolated_server_args(dir), replay_launch(garbage, free_port()));
    EXPECT_FALSE(foreign.started());
    EXPECT_EQ(foreign.start_exit_status(), 1);
    EXPECT_NE(foreign.output().find("not a hide-and-seek replay"), std::string::npos) << foreign.output();

    const auto cut = dir.path() / "cut.cowldhns";
    const std::string whole = vector_replay();
    std::ofstream(cut, std::ios::binary) << whole.substr(0, 40);
    ServerProcess truncated(isolated_server_args(dir), replay_launch(cut, free_port()));
    EXPECT_FALSE(truncated.started());
    EXPECT_EQ(truncated.start_exit_status(), 1);

    ServerProcess::Launch http;
    http.env = {{"COGAME_LOAD_REPLAY_URI", "https://example.com/replay"}};
    ServerProcess remote(isolated_server_args(dir), http);
    EXPECT_FALSE(remote.started());
    EXPECT_EQ(remote.start_exit_status(), 2) << "only file:// URIs, refused before anything starts";
}

}  // namespace
}  // namespace hschool::test::league
