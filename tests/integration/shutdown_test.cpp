// SIGINT and SIGTERM: every client is told 1001, the process exits 0.
#include <signal.h>

#include "wire.hpp"

namespace hschool::test {
namespace {

void expect_graceful_shutdown(int signal) {
    TempDir dir;
    ServerProcess server(isolated_server_args(dir));
    ASSERT_TRUE(server.started()) << server.output();
    auto arena = WsClient::connect(server.port());
    auto schools = WsClient::connect(server.port());
    auto silent = WsClient::connect(server.port());
    ASSERT_TRUE(arena && schools && silent);
    ASSERT_TRUE(arena->send(arena_hello()));
    ASSERT_TRUE(next_v1_of<v1::Welcome>(*arena));
    ASSERT_TRUE(schools->send(schools_hello()));
    ASSERT_TRUE(next_v4_of<v4::Welcome>(*schools));

    kill(server.pid(), signal);
    EXPECT_EQ(close_code(*arena), 1001);
    EXPECT_EQ(close_code(*schools), 1001);
    EXPECT_EQ(close_code(*silent), 1001);
    const auto exit_code = server.stop(0 /* already signalled: just wait */);
    ASSERT_TRUE(exit_code.has_value()) << "server did not exit";
    EXPECT_EQ(*exit_code, 0);
    EXPECT_NE(server.output().find("event=shutdown_complete"), std::string::npos) << server.output();
}

TEST(Shutdown, SigtermClosesEveryClientWithGoingAwayAndExitsZero) { expect_graceful_shutdown(SIGTERM); }
TEST(Shutdown, SigintClosesEveryClientWithGoingAwayAndExitsZero) { expect_graceful_shutdown(SIGINT); }

TEST(Startup, HelpListsEveryOption) {
    TempDir dir;
    ServerProcess server({"--help"});
    EXPECT_FALSE(server.started());
    const auto output = server.output();
    for (const char* option : {"--address", "--port", "--tick-rate", "--data", "--mods", "--web-root", "--log-level",
                               "--record", "--seed", "--obstacles", "--max-connections", "--max-connections-per-ip",
                               "--allow-origin", "--ping-interval-ms", "--peer-timeout-ms", "--write-stall-ms",
                               "--ws-message-rate", "--ws-message-burst", "--ws-byte-rate", "--ws-byte-burst"}) {
        EXPECT_NE(output.find(option), std::string::npos) << option;
    }
}

TEST(Startup, ABadOptionIsAnErrorNotACrash) {
    ServerProcess server({"--tick-rate", "0"});
    EXPECT_FALSE(server.started());
    EXPECT_NE(server.output().find("tick-rate"), std::string::npos) << server.output();
}

TEST(Startup, APortInUseIsAClearError) {
    TempDir dir;
    ServerProcess first(isolated_server_args(dir));
    ASSERT_TRUE(first.started());
    auto args = isolated_server_args(dir);
    args.insert(args.end(), {"--port", std::to_string(first.port())});
    ServerProcess second(args);
    EXPECT_FALSE(second.started());
    EXPECT_NE(second.output().find("event=listen_failed"), std::string::npos) << second.output();
}

}  // namespace
}  // namespace hschool::test
