// Drop-in mode for league runners (spec §2.9): with COGAME_CONFIG_URI set the server runs exactly
// one match with that config, writes its results and replay to the given file:// URIs, keeps
// answering HTTP for the linger time and exits by itself.
#include <csignal>
#include <fstream>
#include <sstream>
#include <thread>

#include "hns_client.hpp"
#include "sim/hns/replay.hpp"
#include "sim/hns/verify.hpp"

namespace hschool::test::hns {
namespace {

TEST(HnsDropIn, RunsOneMatchWritesItsFilesAndExits) {
    TempDir dir;
    const auto config = dir.path() / "config.json";
    std::ofstream(config) << R"({"roomPool":"warren","seed":42,"prepTurns":2,"huntTurns":3,"startWaitTicks":0,"gameOverTicks":24})";
    const auto results = dir.path() / "results.json";
    const auto replay = dir.path() / "replay.cowldhns";
    const std::uint16_t port = free_port();
    ServerProcess::Launch launch;
    launch.env = {{"COGAME_CONFIG_URI", "file://" + config.string()},
                  {"COGAME_RESULTS_URI", "file://" + results.string()},
                  {"COGAME_SAVE_REPLAY_URI", "file://" + replay.string()},
                  {"COGAME_HOST", "127.0.0.1"},
                  {"COGAME_PORT", std::to_string(port)},
                  {"HSCHOOL_DROPIN_LINGER_MS", "1500"}};
    ServerProcess server(isolated_server_args(dir), launch);
    ASSERT_TRUE(server.started()) << server.output();
    ASSERT_EQ(server.port(), port);

    // Exactly one match: the runner's. Six seats send 0x85 after every frame, so it runs fast.
    const auto list = parse(http_request(port, "GET", "/api/hns/matches").body).as_object().at("matches").as_array();
    ASSERT_EQ(list.size(), 1U);
    HttpResult refused;
    EXPECT_EQ(create_match(port, "{}", &refused), "");
    EXPECT_EQ(refused.status, 409U);
    std::vector<std::unique_ptr<WsClient>> seats;
    for (int s = 0; s < 6; ++s) {
        seats.push_back(open_socket(port, "/player?slot=" + std::to_string(s) + "&name=seat" + std::to_string(s)));
        ASSERT_TRUE(seats.back());
    }
    bool over = false;
    for (int frames = 0; frames < 5000 && !over; ++frames) {
        for (auto& seat : seats) {
            auto event = seat->read(kWait);
            if (std::holds_alternative<Closed>(event)) over = true;
            else if (auto* frame = std::get_if<Frame>(&event); frame && frame->binary) seat->send(ready_message());
            else if (!std::get_if<Frame>(&event)) FAIL() << "seat socket timed out";
        }
    }
    ASSERT_TRUE(over);
    // HTTP still answers during the linger; then the process leaves on its own with status 0.
    EXPECT_EQ(http_request(port, "GET", "/healthz").body, "healthy");
    std::optional<int> status;
    eventually([&] { return (status = server.exited()).has_value(); }, kWait, 100ms);
    ASSERT_TRUE(status) << "the server did not exit after the linger";
    EXPECT_EQ(*status, 0);

    const auto results_json = parse(read_file(results));
    ASSERT_TRUE(results_json.is_object());
    auto data = sim::hns::parse_replay(read_file(replay));
    ASSERT_TRUE(data) << data.error;
    ASSERT_FALSE(data->hashes.empty());
    // The results and the replay end on the same tick (948 ticks after the six seats were in).
    const auto final_tick = results_json.as_object().at("finalTick").as_int64();
    EXPECT_EQ(final_tick, static_cast<std::int64_t>(data->hashes.back().tick));
    EXPECT_GE(final_tick, 949);
    EXPECT_TRUE(sim::hns::verify_replay(*data).ok);
}

TEST(HnsDropIn, ABadConfigIsAFailedStart) {
    TempDir dir;
    const auto config = dir.path() / "config.json";
    std::ofstream(config) << R"({"crates":-4})";
    ServerProcess::Launch launch;
    launch.env = {{"COGAME_CONFIG_URI", "file://" + config.string()}, {"COGAME_HOST", "127.0.0.1"},
                  {"COGAME_PORT", std::to_string(free_port())}};
    ServerProcess server(isolated_server_args(dir), launch);
    EXPECT_FALSE(server.started());
    EXPECT_EQ(server.start_exit_status(), 1);
    EXPECT_NE(server.output().find("crates"), std::string::npos) << server.output();

    ServerProcess::Launch http_uri;
    http_uri.env = {{"COGAME_CONFIG_URI", "http://example.com/config.json"}};
    ServerProcess refused(isolated_server_args(dir), http_uri);
    EXPECT_FALSE(refused.started());
    EXPECT_EQ(refused.start_exit_status(), 2);
}

}  // namespace
}  // namespace hschool::test::hns
