// The arena on the loop thread, without sockets: Welcome, shared snapshots, input, leave, full.
#include <gtest/gtest.h>

#include "open_field.hpp"
#include "outbox_reader.hpp"
#include "server/arena/arena_service.hpp"
#include "server/metrics.hpp"

namespace hschool::server {
namespace {

namespace v1 = protocol::v1;
using test::TestConnection;

TEST(ArenaService, JoinSendsWelcomeThenEverySnapshotHasTheAvatar) {
    Metrics metrics;
    ArenaService arena(open_field(), metrics);
    TestConnection c(1);
    arena.join({c.ref, "Ann"});
    auto frames = c.take();
    ASSERT_EQ(frames.size(), 1U);
    const auto welcome = std::get<v1::Welcome>(*v1::decode_server(frames[0]));
    EXPECT_EQ(welcome.tick_rate, 20);
    arena.step();
    arena.broadcast();
    frames = c.take();
    ASSERT_EQ(frames.size(), 1U);
    const auto snapshot = std::get<v1::Snapshot>(*v1::decode_server(frames[0]));
    ASSERT_EQ(snapshot.entities.size(), 1U);
    EXPECT_EQ(snapshot.entities[0].id, welcome.player_id);
}

TEST(ArenaService, InputMovesTheAvatarAndLeaveRemovesIt) {
    Metrics metrics;
    ArenaService arena(open_field(), metrics);
    TestConnection a(1), b(2);
    arena.join({a.ref, "a"});
    arena.join({b.ref, "b"});
    const auto a_id = std::get<v1::Welcome>(*v1::decode_server(a.take().at(0))).player_id;
    b.take();
    arena.step();
    arena.broadcast();
    const auto before = std::get<v1::Snapshot>(*v1::decode_server(b.take().at(0)));
    arena.input({1, 1, v1::buttons::kRight});
    arena.step();
    arena.broadcast();
    const auto after = std::get<v1::Snapshot>(*v1::decode_server(b.take().at(0)));
    auto x_of = [&](const v1::Snapshot& s) {
        for (const auto& e : s.entities)
            if (e.id == a_id) return e.x;
        return -1.0f;
    };
    EXPECT_FLOAT_EQ(x_of(after) - x_of(before), 12.0f);  // 240 units/s over one 20 Hz step
    a.take();
    arena.disconnect(1);
    arena.step();
    arena.broadcast();
    const auto gone = std::get<v1::Snapshot>(*v1::decode_server(b.take().at(0)));
    EXPECT_EQ(x_of(gone), -1.0f);
    EXPECT_TRUE(a.take().empty());
}

TEST(ArenaService, AFullArenaRefusesNewPlayersWith1013) {
    Metrics metrics;
    sim::arena::ArenaSettings settings;
    settings.width = settings.height = 100000;
    settings.obstacle_count = static_cast<int>(v1::kMaxEntitiesPerFrame) - 1;
    ArenaService arena(settings, metrics);
    TestConnection first(1), second(2);
    arena.join({first.ref, "fits"});
    arena.join({second.ref, "does not"});
    EXPECT_EQ(first.take().size(), 1U);
    const auto next = second.ref.outbox->next();
    ASSERT_TRUE(next.close);
    EXPECT_EQ(next.close->code, static_cast<std::uint16_t>(protocol::CloseCode::TryAgainLater));
    arena.step();
    arena.broadcast();
    const auto frames = first.take();
    ASSERT_EQ(frames.size(), 1U);
    EXPECT_LE(frames[0].size(), v1::kMaxInboundFrameBytes);
}

}  // namespace
}  // namespace hschool::server
