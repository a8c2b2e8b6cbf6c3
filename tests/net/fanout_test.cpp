// Tick frames reach every member of a group, by shard; wakes inside a batch are handed over once.
#include <gtest/gtest.h>

#include "net/fanout.hpp"
#include "net/transport_metrics.hpp"
#include "net/wake_batch.hpp"

namespace hschool::net {
namespace {

struct Member {
    int wakes = 0;
    ConnectionRef ref;
    Member(ConnectionId id, std::uint32_t shard) : ref{id, std::make_shared<Outbox>([this] { ++wakes; }), shard} {
        ref.outbox->push_welcome(make_frame(protocol::Bytes{0}));
        while (ref.outbox->next().frame) {
        }  // the Welcome leaves and the writer goes idle
    }
    std::vector<std::uint8_t> ticks() {
        std::vector<std::uint8_t> tags;
        while (auto frame = ref.outbox->next().frame) tags.push_back(frame->payload()[0]);
        return tags;
    }
};

// Records which shard got which list, then delivers like the real network would.
struct ShardRecorder final : FanOut {
    explicit ShardRecorder(TransportMetrics& m) : direct(m) {}
    void deliver(std::uint32_t shard, Frame frame, std::shared_ptr<const OutboxList> outboxes, ProtocolTag tag) override {
        calls.push_back({shard, outboxes->size()});
        direct.deliver(shard, std::move(frame), std::move(outboxes), tag);
    }
    void run(std::uint32_t, std::function<void()> task) override { task(); }
    DirectFanOut direct;
    std::vector<std::pair<std::uint32_t, std::size_t>> calls;
};

TEST(BroadcastGroup, EveryMemberGetsTheFrameWithOneDeliveryPerShard) {
    NoTransportMetrics metrics;
    ShardRecorder fanout(metrics);
    Member a(1, 0), b(2, 1), c(3, 1);
    BroadcastGroup group;
    for (auto* m : {&a, &b, &c}) group.add(m->ref);
    group.deliver(fanout, make_frame(protocol::Bytes{7}), ProtocolTag{4});
    EXPECT_EQ(fanout.calls, (std::vector<std::pair<std::uint32_t, std::size_t>>{{0, 1}, {1, 2}}));
    for (auto* m : {&a, &b, &c}) EXPECT_EQ(m->ticks(), std::vector<std::uint8_t>{7});
}

TEST(BroadcastGroup, ARemovedMemberGetsNothingMoreAndTheOthersKeepGettingFrames) {
    NoTransportMetrics metrics;
    DirectFanOut fanout(metrics);
    Member a(1, 0), b(2, 0);
    BroadcastGroup group;
    group.add(a.ref);
    group.add(b.ref);
    group.deliver(fanout, make_frame(protocol::Bytes{1}), ProtocolTag{1});
    group.remove(1);
    group.remove(99);  // not a member: nothing happens
    EXPECT_EQ(group.size(), 1U);
    group.deliver(fanout, make_frame(protocol::Bytes{2}), ProtocolTag{1});
    EXPECT_EQ(a.ticks(), std::vector<std::uint8_t>{1});
    EXPECT_EQ(b.ticks(), (std::vector<std::uint8_t>{1, 2}));
    group.remove(2);
    EXPECT_TRUE(group.empty());
}

struct CountingTarget final : WakeTarget {
    std::vector<std::vector<int>> calls;
    void wake_all(std::vector<std::shared_ptr<void>>& items) override {
        std::vector<int> values;
        for (auto& item : items) values.push_back(*std::static_pointer_cast<int>(item));
        calls.push_back(values);
    }
};

TEST(WakeBatch, OutsideABatchNothingIsDeferred) {
    auto target = std::make_shared<CountingTarget>();
    std::shared_ptr<void> item = std::make_shared<int>(1);
    EXPECT_FALSE(WakeBatch::defer(target, item));
    EXPECT_TRUE(item) << "the caller keeps the item to wake the target itself";
    EXPECT_TRUE(target->calls.empty());
}

TEST(WakeBatch, EachTargetGetsItsItemsInOrderOnceWhenTheOutermostBatchCloses) {
    auto first = std::make_shared<CountingTarget>();
    auto second = std::make_shared<CountingTarget>();
    {
        const WakeBatch outer;
        for (int i = 1; i <= 3; ++i) {
            std::shared_ptr<void> item = std::make_shared<int>(i);
            const std::shared_ptr<WakeTarget> target = (i == 2) ? std::shared_ptr<WakeTarget>(second) : first;
            EXPECT_TRUE(WakeBatch::defer(target, item));
            EXPECT_FALSE(item);
        }
        {
            const WakeBatch inner;
            std::shared_ptr<void> item = std::make_shared<int>(4);
            EXPECT_TRUE(WakeBatch::defer(first, item));
        }
        EXPECT_TRUE(first->calls.empty()) << "an inner batch does not flush";
    }
    EXPECT_EQ(first->calls, (std::vector<std::vector<int>>{{1, 3, 4}}));
    EXPECT_EQ(second->calls, (std::vector<std::vector<int>>{{2}}));
}

}  // namespace
}  // namespace hschool::net
