// The v5 read poller on real sockets (socketpairs): edge-triggered readiness and again(), room to write on
// request, owners kept alive until removed, and passes on its own timer.
#include "net/read_poller.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstring>
#include <functional>
#include <vector>

#include "net/limits.hpp"

namespace hschool::net {
namespace {

struct Pair {
    Pair() { EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds.data()), 0); }
    ~Pair() {
        for (int fd : fds)
            if (fd >= 0) ::close(fd);
    }
    int ours() const { return fds[0]; }
    int theirs() const { return fds[1]; }
    void send(const char* text) const { ASSERT_GT(::send(theirs(), text, std::strlen(text), 0), 0); }
    std::array<int, 2> fds{-1, -1};
};

// Counts what it is told; reads the socket dry only when asked to.
class Owner final : public PolledSocket {
public:
    explicit Owner(int fd, bool drain = true) : fd_(fd), drain_(drain) {}
    void on_polled(bool readable, bool writable) override {
        if (readable) {
            ++readable_count;
            if (drain_) {
                char buffer[256];
                while (::recv(fd_, buffer, sizeof buffer, MSG_DONTWAIT) > 0) {
                }
            }
        }
        if (writable) ++writable_count;
        if (on_told) on_told();
    }
    int readable_count = 0;
    int writable_count = 0;
    std::function<void()> on_told;

private:
    int fd_;
    bool drain_;
};

TEST(ReadPoller, TellsOnlyTheOwnersWhoseSocketsHaveBytes) {
    boost::asio::io_context ioc;
    ReadPoller poller(ioc);
    Pair a, b;
    auto owner_a = std::make_shared<Owner>(a.ours());
    auto owner_b = std::make_shared<Owner>(b.ours());
    ASSERT_NE(poller.add(a.ours(), owner_a), 0u);
    ASSERT_NE(poller.add(b.ours(), owner_b), 0u);
    EXPECT_EQ(poller.poll_once(), 0u) << "nothing sent yet";
    a.send("input");
    EXPECT_EQ(poller.poll_once(), 1u);
    EXPECT_EQ(owner_a->readable_count, 1);
    EXPECT_EQ(owner_b->readable_count, 0);
    EXPECT_EQ(poller.poll_once(), 0u) << "the owner read it all";
}

TEST(ReadPoller, ASocketIsToldOncePerArrivalOrWhenItsOwnerAsksAgain) {
    boost::asio::io_context ioc;
    ReadPoller poller(ioc);
    Pair a;
    auto owner = std::make_shared<Owner>(a.ours(), /*drain=*/false);
    const auto token = poller.add(a.ours(), owner);
    ASSERT_NE(token, 0u);
    a.send("x");
    poller.poll_once();
    poller.poll_once();
    EXPECT_EQ(owner->readable_count, 1) << "edge-triggered: the same bytes are not reported twice";
    poller.again(token);  // the owner stopped before a short read
    poller.poll_once();
    EXPECT_EQ(owner->readable_count, 2);
    poller.poll_once();
    EXPECT_EQ(owner->readable_count, 2) << "again() is for one pass";
    a.send("y");
    poller.poll_once();
    EXPECT_EQ(owner->readable_count, 3) << "new bytes are a new arrival";
}

TEST(ReadPoller, BytesThereBeforeTheSocketJoinsAreReported) {
    boost::asio::io_context ioc;
    ReadPoller poller(ioc);
    Pair a;
    a.send("early");
    auto owner = std::make_shared<Owner>(a.ours());
    ASSERT_NE(poller.add(a.ours(), owner), 0u);
    poller.poll_once();
    EXPECT_EQ(owner->readable_count, 1) << "a v5 Input sent right behind the Hello is not lost";
}

TEST(ReadPoller, APeerThatClosesIsReportedReadable) {
    boost::asio::io_context ioc;
    ReadPoller poller(ioc);
    Pair a;
    auto owner = std::make_shared<Owner>(a.ours());
    ASSERT_NE(poller.add(a.ours(), owner), 0u);
    ::close(a.fds[1]);
    a.fds[1] = -1;
    EXPECT_EQ(poller.poll_once(), 1u);
    EXPECT_EQ(owner->readable_count, 1) << "the owner's read then finds the end";
}

TEST(ReadPoller, RoomToWriteIsReportedOnlyWhileWanted) {
    boost::asio::io_context ioc;
    ReadPoller poller(ioc);
    Pair a;
    auto owner = std::make_shared<Owner>(a.ours());
    const auto token = poller.add(a.ours(), owner);
    ASSERT_NE(token, 0u);
    poller.poll_once();
    EXPECT_EQ(owner->writable_count, 0) << "not asked for";
    ASSERT_TRUE(poller.want_write(token, true));
    poller.poll_once();
    EXPECT_EQ(owner->writable_count, 1);
    ASSERT_TRUE(poller.want_write(token, false));
    poller.poll_once();
    EXPECT_EQ(owner->writable_count, 1);
    EXPECT_FALSE(poller.want_write(token + 100, true)) << "an unknown token";
}

TEST(ReadPoller, KeepsItsOwnersAliveUntilRemovedAndLetsGoAfter) {
    boost::asio::io_context ioc;
    ReadPoller poller(ioc);
    Pair a;
    auto owner = std::make_shared<Owner>(a.ours());
    std::weak_ptr<Owner> watch = owner;
    const auto token = poller.add(a.ours(), std::move(owner));
    EXPECT_FALSE(watch.expired()) << "the poller holds it";
    poller.remove(token);
    EXPECT_TRUE(watch.expired());
    EXPECT_EQ(poller.size(), 0u);
    a.send("late");
    EXPECT_EQ(poller.poll_once(), 0u) << "a removed socket is no longer watched";
}

TEST(ReadPoller, AnOwnerMayRemoveAnotherDuringAPass) {
    boost::asio::io_context ioc;
    ReadPoller poller(ioc);
    Pair a, b;
    auto owner_a = std::make_shared<Owner>(a.ours());
    auto owner_b = std::make_shared<Owner>(b.ours());
    const auto token_a = poller.add(a.ours(), owner_a);
    const auto token_b = poller.add(b.ours(), owner_b);
    owner_a->on_told = [&] { poller.remove(token_b); };
    owner_b->on_told = [&] { poller.remove(token_a); };
    a.send("1");
    b.send("2");
    poller.poll_once();
    EXPECT_EQ(owner_a->readable_count + owner_b->readable_count, 1) << "the one removed first is not told";
    EXPECT_EQ(poller.size(), 1u) << "only the one told removed the other";
}

TEST(ReadPoller, RefusesABadDescriptorAndAnyAdditionAfterShut) {
    boost::asio::io_context ioc;
    ReadPoller poller(ioc);
    EXPECT_EQ(poller.add(-1, std::make_shared<Owner>(-1)), 0u);
    Pair a;
    EXPECT_EQ(poller.add(a.ours(), nullptr), 0u);
    auto owner = std::make_shared<Owner>(a.ours());
    std::weak_ptr<Owner> watch = owner;
    ASSERT_NE(poller.add(a.ours(), std::move(owner)), 0u);
    poller.shut();
    EXPECT_TRUE(watch.expired()) << "shut drops every owner";
    EXPECT_EQ(poller.add(a.ours(), std::make_shared<Owner>(a.ours())), 0u);
}

TEST(ReadPoller, ItsTimerReachesEverySocketEvenWhenMoreAreReadyThanOnePassTakes) {
    boost::asio::io_context ioc;
    ReadPoller poller(ioc);
    const std::size_t count = static_cast<std::size_t>(kMaxPolledPerPass) + 40;
    std::vector<std::unique_ptr<Pair>> pairs;
    std::vector<std::shared_ptr<Owner>> owners;
    for (std::size_t i = 0; i < count; ++i) {
        pairs.push_back(std::make_unique<Pair>());
        owners.push_back(std::make_shared<Owner>(pairs.back()->ours()));
        ASSERT_NE(poller.add(pairs.back()->ours(), owners.back()), 0u);
        pairs.back()->send("input");
    }
    auto all_told = [&] {
        for (const auto& owner : owners)
            if (owner->readable_count == 0) return false;
        return true;
    };
    // Bounded: each handler run is one timer expiry or one follow-up pass.
    for (int handlers = 0; handlers < 100 && !all_told(); ++handlers) ioc.run_one_for(std::chrono::seconds(1));
    EXPECT_TRUE(all_told());
    for (const auto& owner : owners) EXPECT_EQ(owner->readable_count, 1) << "each socket once: its owner read it dry";
}

}  // namespace
}  // namespace hschool::net
