// The arena's v5 side on the loop thread, without sockets: Welcome then StaticWorld, one command
// per step with ackSeq, skip-and-coalesce for a connection that does not drain, the player cap.
#include <gtest/gtest.h>

#include "open_field.hpp"
#include "outbox_reader.hpp"
#include "protocol/v5.hpp"
#include "server/arena/arena_service.hpp"
#include "server/metrics.hpp"
#include "sim/arena/v5/replica.hpp"

namespace hschool::server {
namespace {

namespace v1 = protocol::v1;
namespace p5 = protocol::v5;
using test::TestConnection;

std::vector<p5::Frame> frames_of(TestConnection& c) {
    std::vector<p5::Frame> out;
    for (const auto& bytes : c.take()) {
        auto decoded = p5::decode_server(bytes);
        EXPECT_TRUE(decoded.ok());
        if (decoded.ok())
            if (auto* f = std::get_if<p5::Frame>(&*decoded)) out.push_back(*f);
    }
    return out;
}

void tick(ArenaService& arena) {
    arena.step();
    arena.broadcast();
}

TEST(ArenaServiceV5, JoinSendsWelcomeThenStaticWorldThenAKeyframe) {
    Metrics metrics;
    ArenaService arena(sim::arena::ArenaSettings{}, metrics);
    TestConnection c(1);
    arena.join_v5({c.ref, "Ann"});
    tick(arena);
    const auto frames = c.take();
    ASSERT_EQ(frames.size(), 3U);
    const auto welcome = std::get<p5::Welcome>(*p5::decode_server(frames[0]));
    EXPECT_EQ(welcome.version, 5);
    EXPECT_EQ(welcome.self_slot, 0);
    EXPECT_EQ(welcome.quantum_exp, -3);
    EXPECT_EQ(welcome.grid_cols, 16);
    const auto world = std::get<p5::StaticWorld>(*p5::decode_server(frames[1]));
    EXPECT_EQ(world.obstacles.size(), arena.world().obstacle_count());
    EXPECT_EQ(world.first_id, 1U);
    const auto first = std::get<p5::Frame>(*p5::decode_server(frames[2]));
    EXPECT_TRUE(first.flags & p5::frame_flags::kKeyframe);
    EXPECT_EQ(first.base_tick, 0U);
    ASSERT_EQ(first.enters.size(), 1U);
    EXPECT_EQ(first.enters[0].id, welcome.player_id);
}

TEST(ArenaServiceV5, EachStepAppliesOneCommandAndEchoesItsSequence) {
    Metrics metrics;
    ArenaService arena(open_field(), metrics);
    TestConnection c(1);
    arena.join_v5({c.ref, "Ann"});
    tick(arena);
    const float x0 = frames_of(c).at(0).self_x;
    // Three commands in one wake-up: right, right, none; then a stale and a repeated one.
    arena.input({1, 1, v1::buttons::kRight});
    arena.input({1, 2, v1::buttons::kRight});
    arena.input({1, 3, 0});
    arena.input({1, 2, v1::buttons::kLeft});
    arena.input({1, 3, v1::buttons::kLeft});
    std::vector<p5::Frame> seen;
    for (int i = 0; i < 4; ++i) {
        tick(arena);
        for (auto& f : frames_of(c)) seen.push_back(f);
    }
    ASSERT_EQ(seen.size(), 4U);
    EXPECT_EQ(seen[0].ack_seq, 1U);
    EXPECT_EQ(seen[0].input_queue, 2U);
    EXPECT_EQ(seen[0].mask, v1::buttons::kRight);
    EXPECT_EQ(seen[0].self_x, x0 + 12.0f);
    EXPECT_EQ(seen[1].ack_seq, 2U);
    EXPECT_EQ(seen[1].self_x, x0 + 24.0f);
    EXPECT_EQ(seen[2].ack_seq, 3U);
    EXPECT_EQ(seen[2].mask, 0);
    EXPECT_EQ(seen[2].self_x, x0 + 24.0f);
    EXPECT_EQ(seen[3].ack_seq, 3U) << "an empty FIFO keeps the last command";
    EXPECT_EQ(seen[3].input_queue, 0U);
}

TEST(ArenaServiceV5, AFullFifoDropsItsOldestCommand) {
    Metrics metrics;
    ArenaService arena(open_field(), metrics);
    TestConnection c(1);
    arena.join_v5({c.ref, "Ann"});
    for (std::uint32_t seq = 1; seq <= kV5InputFifo + 3; ++seq) arena.input({1, seq, 0});
    tick(arena);
    const auto frames = frames_of(c);
    ASSERT_EQ(frames.size(), 1U);
    EXPECT_EQ(frames[0].ack_seq, 4U);
    EXPECT_EQ(frames[0].input_queue, kV5InputFifo - 1);
}

// Two v5 players; the reader's replica holds its first Frame, and its own avatar has 8 commands to go.
class ArenaServiceV5Skips : public ::testing::Test {
protected:
    void SetUp() override {
        arena.join_v5({reader.ref, "reader"});
        arena.join_v5({mover.ref, "mover"});
        tick(arena);
        for (const auto& f : frames_of(reader)) ASSERT_EQ(replica.apply(f), std::nullopt);
        for (std::uint32_t seq = 1; seq <= 8; ++seq) arena.input({1, seq, v1::buttons::kRight});
    }
    Metrics metrics;
    ArenaService arena{open_field(), metrics};
    TestConnection reader{1}, mover{2};
    sim::arena::v5::Replica replica;
};

TEST_F(ArenaServiceV5Skips, AConnectionWhoseSocketIsFullIsSkippedThenGetsOneCoalescedDelta) {
    reader.ref.outbox->set_socket_full(true);  // as its session says while it waits for room
    for (int i = 0; i < 8; ++i) tick(arena);  // the client does not read: two Frames queue, six ticks are skipped
    EXPECT_EQ(reader.ref.outbox->queued_deltas(), kV5QueuedFrames);
    auto queued = frames_of(reader);
    ASSERT_EQ(queued.size(), kV5QueuedFrames);
    for (const auto& f : queued) ASSERT_EQ(replica.apply(f), std::nullopt);
    tick(arena);
    const auto next = frames_of(reader);
    ASSERT_EQ(next.size(), 1U);
    EXPECT_EQ(next[0].base_tick, queued.back().tick);
    EXPECT_EQ(next[0].tick, queued.back().tick + 7) << "the skipped ticks are coalesced";
    ASSERT_EQ(replica.apply(next[0]), std::nullopt);
    ASSERT_EQ(next[0].updates.size(), 1U);
    EXPECT_EQ(next[0].updates[0].form, p5::form::kFields) << "7 steps of 96 quanta do not fit an i8";
}

TEST_F(ArenaServiceV5Skips, AConnectionWhoseThreadIsBehindQueuesUpToTheCapBeforeItIsSkipped) {
    // The socket has room: its thread is only late to write, so each tick still gets its Frame.
    for (std::size_t i = 0; i < kV5MaxQueuedFrames + 3; ++i) tick(arena);
    auto queued = frames_of(reader);
    ASSERT_EQ(queued.size(), kV5MaxQueuedFrames) << "at the cap the next ticks are skipped";
    for (std::size_t i = 0; i < queued.size(); ++i) {
        ASSERT_EQ(replica.apply(queued[i]), std::nullopt);
        if (i > 0) {
            EXPECT_EQ(queued[i].tick, queued[i - 1].tick + 1) << "one Frame per tick, none coalesced";
        }
    }
    tick(arena);
    const auto next = frames_of(reader);
    ASSERT_EQ(next.size(), 1U);
    EXPECT_EQ(next[0].tick, queued.back().tick + 4) << "three skipped ticks, coalesced";
    ASSERT_EQ(replica.apply(next[0]), std::nullopt);
}

TEST(ArenaServiceV5, SkipRuleTakesTheSocketIntoAccount) {
    EXPECT_FALSE(skip_v5_frame(kV5QueuedFrames - 1, true));
    EXPECT_TRUE(skip_v5_frame(kV5QueuedFrames, true)) << "a slow client";
    EXPECT_FALSE(skip_v5_frame(kV5QueuedFrames, false)) << "a thread that is behind";
    EXPECT_FALSE(skip_v5_frame(kV5MaxQueuedFrames - 1, false));
    EXPECT_TRUE(skip_v5_frame(kV5MaxQueuedFrames, false)) << "the cap, whatever the reason";
}

TEST(ArenaServiceV5, MaxPlayersCountsBothVersionsAndRefusesWith1013) {
    Metrics metrics;
    ArenaService arena(open_field(), metrics, nullptr, 2);
    TestConnection a(1), b(2), c(3), d(4);
    arena.join({a.ref, "v1"});
    arena.join_v5({b.ref, "v5"});
    arena.join_v5({c.ref, "late v5"});
    arena.join({d.ref, "late v1"});
    for (auto* late : {&c, &d}) {
        const auto next = late->ref.outbox->next();
        ASSERT_TRUE(next.close);
        EXPECT_EQ(next.close->code, static_cast<std::uint16_t>(protocol::CloseCode::TryAgainLater));
    }
    EXPECT_EQ(arena.players(), 2U);
}

TEST(ArenaServiceV5, V5PlayersBeyondAV1SnapshotStillJoinWhileV1ClientsSeeTheFirstEntities) {
    Metrics metrics;
    sim::arena::ArenaSettings settings;
    settings.width = settings.height = 8000;
    settings.obstacle_count = 0;
    ArenaService arena(settings, metrics);
    TestConnection v1_client(1);
    arena.join({v1_client.ref, "v1"});
    std::vector<std::unique_ptr<TestConnection>> crowd;
    for (std::size_t i = 0; i < v1::kMaxEntitiesPerFrame + 5; ++i) {
        crowd.push_back(std::make_unique<TestConnection>(100 + i));
        arena.join_v5({crowd.back()->ref, ""});
    }
    EXPECT_EQ(arena.players(), v1::kMaxEntitiesPerFrame + 6);
    TestConnection late(2);
    arena.join({late.ref, "late v1"});
    ASSERT_TRUE(late.ref.outbox->next().close);
    tick(arena);
    const auto frames = v1_client.take();
    const auto snapshot = std::get<v1::Snapshot>(*v1::decode_server(frames.back()));
    EXPECT_EQ(snapshot.entities.size(), v1::kMaxEntitiesPerFrame);
    EXPECT_LE(frames.back().size(), v1::kMaxInboundFrameBytes);
    EXPECT_EQ(snapshot.entities.front().id, std::get<v1::Welcome>(*v1::decode_server(frames.front())).player_id);
}

}  // namespace
}  // namespace hschool::server
