// SIGTERM while many keep-alive HTTP loops run: a clean exit 0 every time (under ASan, a report
// would make the exit code non-zero).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <algorithm>
#include <array>
#include <thread>

#include "abuse_support.hpp"

namespace hschool::test::abuse {
namespace {

inline constexpr int kRounds = 20;
inline constexpr int kLoops = 32;
inline constexpr int kRequestsBeforeSignal = 2;  // by every loop: all 32 connections are live when the signal comes
inline constexpr auto kLoadDeadline = kWait;
inline constexpr auto kExitDeadline = kWait;
inline constexpr auto kSocketTimeout = std::chrono::seconds(2);  // a loop never blocks longer than this
inline constexpr auto kReconnectPause = 5ms;
inline constexpr auto kOutputDeadline = kWait;

// GET /health again and again on one connection, reconnecting when it breaks, until told to stop.
void keep_alive_loop(std::uint16_t port, const std::atomic<bool>& stop, std::atomic<int>& served) {
    const std::string request = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    while (!stop) {
        Socket socket = Socket::connect(port);
        if (!socket.valid()) {
            std::this_thread::sleep_for(kReconnectPause);
            continue;
        }
        std::string buffer;
        while (!stop) {
            if (!socket.send_all(request, kSocketTimeout)) break;
            const auto reply = read_http_reply(socket, buffer, false, kSocketTimeout);
            if (!reply.complete) break;
            ++served;
        }
    }
}

TEST(ShutdownAbuse, SigtermDuringThirtyTwoKeepAliveLoopsExitsZeroEveryRound) {
    for (int round = 1; round <= kRounds; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        TempDir dir;
        ServerProcess server(server_args(dir));
        ASSERT_TRUE(server.started()) << server.output();

        std::atomic<bool> stop{false};
        std::array<std::atomic<int>, kLoops> served{};
        std::vector<std::thread> loops;
        for (int i = 0; i < kLoops; ++i) loops.emplace_back([&, i] { keep_alive_loop(server.port(), stop, served[i]); });
        const auto slowest = [&] {
            int least = served[0].load();
            for (const auto& count : served) least = std::min(least, count.load());
            return least;
        };
        const bool loaded = eventually([&] { return slowest() >= kRequestsBeforeSignal; }, kLoadDeadline, 5ms);

        std::optional<int> exit_code;
        if (loaded) exit_code = server.stop(SIGTERM, kExitDeadline);
        stop = true;
        for (auto& loop : loops) loop.join();

        ASSERT_TRUE(loaded) << "a keep-alive loop served only " << slowest() << " requests";
        ASSERT_TRUE(exit_code.has_value()) << "no exit within " << kExitDeadline.count() << " s of SIGTERM\n" << server.output();
        EXPECT_EQ(*exit_code, 0) << server.output();
        // The last lines may still be in the pipe when the process has been reaped.
        EXPECT_TRUE(eventually([&] { return server.output().find("event=shutdown_complete") != std::string::npos; }, kOutputDeadline))
            << server.output();
        EXPECT_EQ(server.output().find("AddressSanitizer"), std::string::npos) << server.output();
        if (::testing::Test::HasFailure()) break;
    }
}

}  // namespace
}  // namespace hschool::test::abuse
