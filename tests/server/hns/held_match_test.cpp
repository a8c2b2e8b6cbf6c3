// A match held for the network (a seat's earlier frames not yet written by its network thread)
// looks again at a fixed time, on the pool as on a thread of its own, even when the seat's writer
// never calls back (issue 42). The bug this catches (fixed in 0fa2ee3): on the pool every look
// before the recheck time moved it 100 ms further, so a held match whose writer never called back
// was never looked at again, and its seats got no frame for good.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <variant>

#include "server/hns/contract/query.hpp"
#include "server/hns/hub/match_maker.hpp"
#include "server/hns/live/live_match.hpp"
#include "silent_metrics.hpp"
#include "net/task_pool.hpp"
#include "wait.hpp"

namespace hschool::server::hns::held_match_test {
namespace {

using test::eventually;
using test::kWait;

// A seat's connection whose writer is behind while the test says so, and never calls back.
class SlowWriterSeat final : public net::WsConnection {
public:
    net::ConnectionId id() const override { return 1; }
    net::ConnectionRef ref() const override { return {}; }
    bool send(protocol::ByteView, bool) override {
        ++messages;
        return true;
    }
    void close(std::uint16_t, const char*) override { closed = true; }
    bool send_shared(const net::SharedMessagePtr&) override { return true; }
    std::size_t shared_backlog() const override { return 0; }
    void drop_shared_backlog() override {}
    bool reader_lagging() const override { return false; }
    bool writer_behind(std::size_t) override { return behind.load(); }
    void on_writer_caught_up(std::function<void()>) override {}  // kept by nobody: it never comes
    void speak(const net::WsProtocol&) override {}
    void reply(protocol::ByteView) override {}

    std::atomic<bool> behind{false};
    std::atomic<int> messages{0};
    std::atomic<bool> closed{false};
};

class CountingMetrics final : public SilentHnsMetrics {
public:
    void network_wait() override { ++waits; }
    std::atomic<int> waits{0};
};

class QuietListener final : public MatchListener {
public:
    void on_match_finished(const std::string&, FinishedMatch) override {}
};

// One match with seat 0 ours and five bots, on a pool of one thread (pool) or its own thread.
void a_held_match_looks_again_without_a_call_back(bool pool) {
    net::ThreadLauncher launcher;
    net::TaskPool match_pool(1, 0, "held-pool", launcher);
    CountingMetrics metrics;
    QuietListener listener;

    auto config = build_config(CreateRequest{"certification", "", 5});
    ASSERT_TRUE(std::holds_alternative<sim::hns::GameConfig>(config));
    MatchSetup setup;
    setup.id = "held";
    setup.variant = "certification";
    setup.config = std::get<sim::hns::GameConfig>(config);
    setup.bots = 5;
    auto opened = LiveMatch::open(std::move(setup), listener, metrics);
    ASSERT_TRUE(opened) << opened.error;
    std::shared_ptr<LiveMatch> match = *opened;
    match->start(launcher, pool ? &match_pool : nullptr);

    auto query = parse_query("slot=0");
    ASSERT_TRUE(query);
    auto admitted = match->admit(Endpoint::Player, *query);
    ASSERT_TRUE(std::holds_alternative<std::shared_ptr<net::WsHandler>>(admitted));
    auto handler = std::get<std::shared_ptr<net::WsHandler>>(admitted);
    auto seat = std::make_shared<SlowWriterSeat>();
    handler->on_open(seat);

    ASSERT_TRUE(eventually([&] { return seat->messages.load() >= 3; })) << "the seat never got its first frames";
    seat->behind = true;
    // Held: every look at the network counts one wait; looks come every kNetworkHoldRecheck.
    ASSERT_TRUE(eventually([&] { return metrics.waits.load() >= 1; })) << "the match was never held";
    EXPECT_TRUE(eventually([&] { return metrics.waits.load() >= 3; }))
        << "held, the match looked at the network " << metrics.waits.load() << " time(s) in " << kWait.count()
        << " ms: without a call back it is never looked at again";
    const int while_held = seat->messages.load();
    seat->behind = false;  // the writer caught up and says nothing
    EXPECT_TRUE(eventually([&] { return seat->messages.load() > while_held + 2; }))
        << "no frame after the network caught up: " << seat->messages.load() << " messages, " << while_held << " while held";
    EXPECT_FALSE(seat->closed.load()) << "a seat the server is behind on is held for, not closed";
    handler->on_closed();
    match->stop();
}

TEST(HeldMatch, OnThePoolItLooksAgainAtAFixedTimeWhenTheWriterNeverCallsBack) { a_held_match_looks_again_without_a_call_back(true); }

TEST(HeldMatch, OnItsOwnThreadItLooksAgainAtAFixedTimeWhenTheWriterNeverCallsBack) { a_held_match_looks_again_without_a_call_back(false); }

}  // namespace
}  // namespace hschool::server::hns::held_match_test
