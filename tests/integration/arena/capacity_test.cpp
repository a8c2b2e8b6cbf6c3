// A full arena: the join that would push a snapshot past the 64 KiB frame is refused with 1013,
// and the players already in keep getting snapshots that fit.
#include "arena_client.hpp"
#include "protocol/close_codes.hpp"

namespace hschool::test::arena {
namespace {

constexpr int kObstacles = 3118;  // kMaxEntitiesPerFrame (3120) minus two players

TEST(ArenaCapacity, TheJoinThatWouldOverflowASnapshotIsRefusedWithTryAgainLater) {
    static_assert(v1::kMaxEntitiesPerFrame == 3120);
    static_assert(v1::snapshot_bytes(v1::kMaxEntitiesPerFrame) <= v1::kMaxInboundFrameBytes);
    static_assert(v1::snapshot_bytes(v1::kMaxEntitiesPerFrame + 1) > v1::kMaxInboundFrameBytes);
    TempDir dir;
    auto args = isolated_server_args(dir);
    for (const char* a : {"--obstacles", "3118", "--world-width", "100000", "--world-height", "100000"}) args.push_back(a);
    ServerProcess server(args);
    ASSERT_TRUE(server.started()) << server.output();

    std::vector<std::unique_ptr<ArenaClient>> players;
    players.push_back(std::make_unique<ArenaClient>(server.port(), "first"));
    ASSERT_TRUE(players.back()->joined());
    auto first = players.back()->snapshot();
    ASSERT_TRUE(first);
    // Every obstacle found room in a field this big; the rest of the frame is for players.
    const std::size_t obstacles = count_kind(*first, v1::kind::kObstacle);
    ASSERT_EQ(obstacles, static_cast<std::size_t>(kObstacles));
    const std::size_t capacity = v1::kMaxEntitiesPerFrame - obstacles;
    ASSERT_EQ(capacity, 2U);

    while (players.size() < capacity) {
        players.push_back(std::make_unique<ArenaClient>(server.port(), "next"));
        ASSERT_TRUE(players.back()->joined()) << "player " << players.size() << " of " << capacity;
    }

    // One more: refused with 1013 and a reason, and never welcomed.
    auto refused = WsClient::connect(server.port());
    ASSERT_TRUE(refused);
    ASSERT_TRUE(refused->send(arena_hello("one too many")));
    auto event = refused->read(kWait);
    auto* closed = std::get_if<Closed>(&event);
    ASSERT_TRUE(closed) << "the refused player got a frame instead of a close";
    EXPECT_EQ(closed->code, 1013);
    EXPECT_EQ(closed->reason, protocol::kArenaFullReason) << "the web client words a full arena by this reason";

    // The ones in keep getting full snapshots that fit one frame, with everyone in them. Snapshots
    // queued before the last join (a loaded machine reads late) are skipped first.
    for (auto& player : players) {
        bool caught_up = false;
        for (int i = 0, checked = 0; checked < 5 && i < 5 + 64; ++i) {
            auto raw = player->ws().read(kWait);
            auto* frame = std::get_if<Frame>(&raw);
            ASSERT_TRUE(frame) << "player " << player->id() << " lost its connection";
            if (frame->data.empty() || frame->data[0] != v1::id::kSnapshot) continue;
            if (!caught_up) {
                auto early = v1::decode_server(frame->data);
                ASSERT_TRUE(early);
                caught_up = count_kind(std::get<v1::Snapshot>(*early), v1::kind::kPlayer) == capacity;
                if (!caught_up) continue;
            }
            ++checked;
            EXPECT_LE(frame->data.size(), v1::kMaxInboundFrameBytes);
            EXPECT_EQ(frame->data.size(), v1::snapshot_bytes(v1::kMaxEntitiesPerFrame));
            auto decoded = v1::decode_server(frame->data);
            ASSERT_TRUE(decoded);
            const auto& s = std::get<v1::Snapshot>(*decoded);
            EXPECT_EQ(count_kind(s, v1::kind::kPlayer), capacity);
            for (auto& other : players) EXPECT_TRUE(find(s, other->id())) << "tick " << s.tick;
        }
        EXPECT_TRUE(caught_up) << "player " << player->id() << " never saw every player";
    }

    // A seat frees when a player leaves: the next Hello is welcomed again.
    const std::uint32_t left = players.back()->id();
    players.pop_back();
    bool despawned = false;
    for (int i = 0; i < 60 && !despawned; ++i) {
        auto s = players.front()->snapshot();
        ASSERT_TRUE(s);
        despawned = !find(*s, left);
    }
    ASSERT_TRUE(despawned);
    ArenaClient again(server.port(), "again");
    ASSERT_TRUE(again.joined());
    EXPECT_GT(again.id(), left);
}

}  // namespace
}  // namespace hschool::test::arena
