// Arena gameplay over protocol v1, seen through real WebSocket clients of the real server.
#include <set>

#include "arena_client.hpp"

namespace hschool::test::arena {
namespace {

constexpr float kStep = 12.0f;  // 240 units/s at 20 Hz
constexpr std::uint32_t kObstacleColour = 0x5B6472;

class Arena : public ArenaServerTest {
protected:
    // Reads `reader`'s snapshots until `id` is in one; bounded.
    static std::optional<v1::Snapshot> until_present(ArenaClient& reader, std::uint32_t id) {
        for (int i = 0; i < kMaxSnapshotsToWait; ++i) {
            auto s = reader.snapshot();
            if (!s) return std::nullopt;
            if (find(*s, id)) return s;
        }
        ADD_FAILURE() << "entity " << id << " never appeared";
        return std::nullopt;
    }
};

// The x, y and tick of one avatar in consecutive snapshots.
struct Sample {
    std::uint32_t tick;
    float x, y;
};

std::vector<Sample> track(ArenaClient& reader, std::uint32_t id, std::uint32_t from_tick, int count) {
    std::vector<Sample> samples;
    auto first = reader.snapshot_at_or_after(from_tick);
    if (!first) return samples;
    std::optional<v1::Snapshot> s = std::move(first);
    while (true) {
        const auto* e = find(*s, id);
        if (!e) {
            ADD_FAILURE() << "avatar " << id << " missing from snapshot " << s->tick;
            return samples;
        }
        samples.push_back({s->tick, e->x, e->y});
        if (static_cast<int>(samples.size()) == count) return samples;
        s = reader.snapshot();
        if (!s) return samples;
    }
}

// Every pair of consecutive samples moved by exactly `per_tick` per elapsed tick along x.
void expect_moving_x(const std::vector<Sample>& samples, float per_tick, float y) {
    ASSERT_GE(samples.size(), 2U);
    for (std::size_t i = 1; i < samples.size(); ++i) {
        const auto& a = samples[i - 1];
        const auto& b = samples[i];
        ASSERT_GT(b.tick, a.tick) << "snapshot ticks must increase";
        EXPECT_EQ(b.x - a.x, per_tick * static_cast<float>(b.tick - a.tick))
            << "ticks " << a.tick << ".." << b.tick << " x " << a.x << " -> " << b.x;
        EXPECT_EQ(b.y, y) << "tick " << b.tick;
    }
}

void expect_still(const std::vector<Sample>& samples) {
    ASSERT_GE(samples.size(), 2U);
    for (const auto& s : samples) {
        EXPECT_EQ(s.x, samples.front().x) << "tick " << s.tick;
        EXPECT_EQ(s.y, samples.front().y) << "tick " << s.tick;
    }
}

TEST_F(Arena, TwoPlayersSeeEachOtherWithDistinctColours) {
    start();
    ArenaClient ann(port(), "Ann");
    ASSERT_TRUE(ann.joined());
    ArenaClient bob(port(), "Bob");
    ASSERT_TRUE(bob.joined());
    EXPECT_NE(ann.id(), bob.id());
    EXPECT_GT(ann.id(), 12U) << "obstacles take ids 1..12";
    EXPECT_GT(bob.id(), ann.id());

    auto seen_by_ann = until_present(ann, bob.id());
    ASSERT_TRUE(seen_by_ann);
    auto seen_by_bob = until_present(bob, ann.id());
    ASSERT_TRUE(seen_by_bob);
    for (const auto* snapshot : {&*seen_by_ann, &*seen_by_bob}) {
        const auto* a = find(*snapshot, ann.id());
        const auto* b = find(*snapshot, bob.id());
        ASSERT_TRUE(a && b) << "tick " << snapshot->tick;
        EXPECT_EQ(a->kind, v1::kind::kPlayer);
        EXPECT_EQ(b->kind, v1::kind::kPlayer);
        EXPECT_NE(a->colour, b->colour);
        EXPECT_EQ(a->colour, 0xF25454U);  // the first two steps of the golden-angle walk (docs/arena.md)
        EXPECT_EQ(b->colour, 0x54F282U);
        EXPECT_NE(a->colour, kObstacleColour);
        EXPECT_FLOAT_EQ(a->radius, 16.0f);
        EXPECT_EQ(count_kind(*snapshot, v1::kind::kPlayer), 2U);
        EXPECT_EQ(count_kind(*snapshot, v1::kind::kObstacle), 12U);
        // Spawn points: the centre, then the top-left quarter point.
        EXPECT_EQ(a->x, 800.0f);
        EXPECT_EQ(a->y, 450.0f);
        EXPECT_EQ(b->x, 400.0f);
        EXPECT_EQ(b->y, 225.0f);
    }
    // Both clients receive the same frame for the same tick.
    auto next_ann = ann.snapshot_at_or_after(seen_by_bob->tick + 2);
    ASSERT_TRUE(next_ann);
    auto same_tick = bob.snapshot_at_or_after(next_ann->tick);
    ASSERT_TRUE(same_tick);
    if (same_tick->tick == next_ann->tick) {
        EXPECT_EQ(*same_tick, *next_ann);
    }
}

TEST_F(Arena, TheOtherClientSeesAnAvatarMoveRightAtTheConfiguredSpeed) {
    start({"--obstacles", "0"});
    ArenaClient mover(port(), "mover");
    ASSERT_TRUE(mover.joined());
    ArenaClient watcher(port(), "watcher");
    ASSERT_TRUE(watcher.joined());
    ASSERT_TRUE(until_present(watcher, mover.id()));

    for (std::uint32_t sequence = 1; sequence <= 3; ++sequence) ASSERT_TRUE(mover.input(sequence, v1::buttons::kRight));
    const auto moving_from = mover.fence();
    ASSERT_TRUE(moving_from);
    const auto samples = track(watcher, mover.id(), *moving_from - 1, 10);
    ASSERT_EQ(samples.size(), 10U);
    // 10 snapshots from the centre stay well clear of the right wall (x <= 1584).
    EXPECT_GT(samples.back().x, 800.0f);
    EXPECT_LT(samples.back().x, 1584.0f);
    expect_moving_x(samples, kStep, 450.0f);
}

TEST_F(Arena, InputIsLevelBasedOrderedBySequenceAndIgnoresUnknownBits) {
    start({"--obstacles", "0", "--world-width", "6000"});
    ArenaClient client(port());
    ASSERT_TRUE(client.joined());
    ASSERT_EQ(client.welcome().world_width, 6000.0f);
    ArenaClient watcher(port(), "watcher");
    ASSERT_TRUE(watcher.joined());
    ASSERT_TRUE(until_present(watcher, client.id()));

    // One Input, then silence: the avatar keeps moving for many ticks.
    ASSERT_TRUE(client.input(10, v1::buttons::kRight));
    auto from = client.fence();
    ASSERT_TRUE(from);
    auto samples = track(watcher, client.id(), *from - 1, 12);
    ASSERT_EQ(samples.size(), 12U);
    EXPECT_GE(samples.back().tick - samples.front().tick, 11U);
    expect_moving_x(samples, kStep, 450.0f);

    // A lower sequence is late: it must not undo the newer intent.
    ASSERT_TRUE(client.input(5, 0));
    from = client.fence();
    ASSERT_TRUE(from);
    samples = track(watcher, client.id(), *from - 1, 6);
    expect_moving_x(samples, kStep, 450.0f);

    // A newer mask 0 stops it.
    ASSERT_TRUE(client.input(11, 0));
    from = client.fence();
    ASSERT_TRUE(from);
    samples = track(watcher, client.id(), *from, 6);
    expect_still(samples);
    const float stopped_at = samples.back().x;

    // Unknown bits are dropped: 0xF0 | right moves right, at the straight (not diagonal) speed.
    ASSERT_TRUE(client.input(12, 0xF0 | v1::buttons::kRight));
    from = client.fence();
    ASSERT_TRUE(from);
    samples = track(watcher, client.id(), *from - 1, 6);
    expect_moving_x(samples, kStep, 450.0f);
    EXPECT_GT(samples.back().x, stopped_at);

    // An equal sequence is accepted: it stops the avatar again.
    ASSERT_TRUE(client.input(12, 0xF0));
    from = client.fence();
    ASSERT_TRUE(from);
    samples = track(watcher, client.id(), *from, 4);
    expect_still(samples);
}

TEST_F(Arena, ADisconnectedAvatarLeavesTheOtherClientsSnapshots) {
    start();
    ArenaClient stays(port(), "stays");
    ASSERT_TRUE(stays.joined());
    ArenaClient leaves(port(), "leaves");
    ASSERT_TRUE(leaves.joined());
    const std::uint32_t gone = leaves.id();
    ASSERT_TRUE(until_present(stays, gone));

    leaves.drop();
    std::optional<v1::Snapshot> without;
    for (int i = 0; i < 60 && !without; ++i) {  // 3 s at 20 Hz
        auto s = stays.snapshot();
        ASSERT_TRUE(s);
        if (!find(*s, gone)) without = std::move(s);
    }
    ASSERT_TRUE(without) << "the avatar of a closed connection stayed in 60 snapshots";
    ASSERT_TRUE(find(*without, stays.id()));
    // Gone for good: no later snapshot brings it back.
    for (int i = 0; i < 10; ++i) {
        auto s = stays.snapshot();
        ASSERT_TRUE(s);
        EXPECT_FALSE(find(*s, gone)) << "tick " << s->tick;
        EXPECT_EQ(count_kind(*s, v1::kind::kPlayer), 1U);
    }
}

TEST_F(Arena, ReplicationIdsAreNeverReused) {
    start({"--obstacles", "3"});
    ArenaClient observer(port(), "observer");
    ASSERT_TRUE(observer.joined());
    std::vector<std::uint32_t> ids{observer.id()};
    for (int round = 0; round < 5; ++round) {
        auto guest = std::make_unique<ArenaClient>(port(), "guest");
        ASSERT_TRUE(guest->joined());
        const std::uint32_t id = guest->id();
        EXPECT_GT(id, ids.back()) << "round " << round;
        EXPECT_GT(id, 3U) << "obstacles own ids 1..3";
        ids.push_back(id);
        ASSERT_TRUE(until_present(observer, id));
        guest.reset();
        // Wait until the server has despawned it, so the next join could reuse the id if it were buggy.
        bool despawned = false;
        for (int i = 0; i < 60 && !despawned; ++i) {
            auto s = observer.snapshot();
            ASSERT_TRUE(s);
            despawned = !find(*s, id);
        }
        ASSERT_TRUE(despawned) << "guest " << id << " was never despawned";
    }
    EXPECT_EQ(std::set<std::uint32_t>(ids.begin(), ids.end()).size(), ids.size());
}

TEST_F(Arena, SnapshotFramesAreSevenPlusTwentyOneBytesPerEntityAndCarryEveryObstacle) {
    start({"--obstacles", "5"});
    ArenaClient ann(port(), "Ann");
    ASSERT_TRUE(ann.joined());
    ArenaClient bob(port(), "Bob");
    ASSERT_TRUE(bob.joined());
    ASSERT_TRUE(until_present(ann, bob.id()));

    std::optional<std::vector<v1::EntityState>> obstacles;
    int checked = 0;
    for (int i = 0; i < 60 && checked < 20; ++i) {
        auto event = ann.ws().read(kWait);
        auto* frame = std::get_if<Frame>(&event);
        ASSERT_TRUE(frame) << "expected a frame";
        ASSERT_FALSE(frame->data.empty());
        if (frame->data[0] != v1::id::kSnapshot) continue;
        auto decoded = v1::decode_server(frame->data);
        ASSERT_TRUE(decoded) << protocol::describe(decoded.error());
        const auto& snapshot = std::get<v1::Snapshot>(*decoded);
        // 5 obstacles + 2 players.
        ASSERT_EQ(snapshot.entities.size(), 7U) << "tick " << snapshot.tick;
        EXPECT_EQ(frame->data.size(), 7U + 21U * 7U);
        EXPECT_EQ(frame->data.size(), v1::snapshot_bytes(snapshot.entities.size()));
        // The u16 count in the header says the same.
        EXPECT_EQ(frame->data[5] | (frame->data[6] << 8), 7);
        std::vector<v1::EntityState> these;
        for (const auto& e : snapshot.entities)
            if (e.kind == v1::kind::kObstacle) these.push_back(e);
        ASSERT_EQ(these.size(), 5U) << "tick " << snapshot.tick;
        for (std::uint32_t k = 0; k < 5; ++k) {
            EXPECT_EQ(these[k].id, k + 1) << "obstacles take ids 1..5";
            EXPECT_EQ(these[k].colour, kObstacleColour);
        }
        // In ascending id order, and the obstacles never move.
        EXPECT_TRUE(std::is_sorted(snapshot.entities.begin(), snapshot.entities.end(),
                                   [](const auto& a, const auto& b) { return a.id < b.id; }));
        if (!obstacles) obstacles = these;
        EXPECT_EQ(these, *obstacles) << "tick " << snapshot.tick;
        ++checked;
    }
    EXPECT_EQ(checked, 20);
}

TEST_F(Arena, HelloNamesUpToThirtyTwoBytesOfUtf8AreAccepted) {
    start();
    ArenaClient unnamed(port(), "");
    ASSERT_TRUE(unnamed.joined()) << "an empty name gets a default";
    EXPECT_GT(unnamed.id(), 0U);
    std::string thirty_two;
    for (int i = 0; i < 16; ++i) thirty_two += "\xC3\xA9";  // é: 16 × 2 bytes
    ASSERT_EQ(thirty_two.size(), 32U);
    ArenaClient full(port(), thirty_two);
    ASSERT_TRUE(full.joined());
    EXPECT_GT(full.id(), unnamed.id());
    auto s = until_present(full, unnamed.id());
    ASSERT_TRUE(s);
    EXPECT_TRUE(find(*s, full.id()));
}

TEST_F(Arena, HelloNamesOverThirtyTwoBytesOrNotUtf8CloseWithInvalidPayload) {
    start();
    const auto hello_with = [](const std::string& name) {
        protocol::Bytes hello{v1::id::kHello, v1::kVersion, static_cast<std::uint8_t>(name.size())};
        hello.insert(hello.end(), name.begin(), name.end());
        return hello;
    };
    std::string thirty_three(33, 'x');
    std::string multibyte_33 = std::string(31, 'a') + "\xC3\xA9";  // 33 bytes, valid UTF-8
    ASSERT_EQ(multibyte_33.size(), 33U);
    const std::vector<std::pair<const char*, std::string>> cases{
        {"33 ASCII bytes", thirty_three},
        {"33 bytes of valid UTF-8", multibyte_33},
        {"a cut-off sequence", "ab\xC3"},
        {"a stray continuation byte", "\x80"},
        {"an overlong NUL", std::string("\xC0\x80", 2)},
        {"a surrogate", "\xED\xA0\x80"},
        {"above U+10FFFF", "\xF4\x90\x80\x80"},
    };
    for (const auto& [what, name] : cases) {
        auto client = WsClient::connect(port());
        ASSERT_TRUE(client);
        ASSERT_TRUE(client->send(hello_with(name)));
        auto closed = client->read_until_closed(kWait);
        ASSERT_TRUE(closed) << what;
        EXPECT_EQ(closed->code, 1007) << what;
    }
    // The server is still fine for a well-formed Hello.
    ArenaClient after(port(), "after");
    EXPECT_TRUE(after.joined());
}

// The simulate-and-encode histogram counts the wake-ups that had players, and only those.
TEST_F(Arena, SimulateAndEncodeIsTimedOnlyWhilePlayersAreIn) {
    start();
    auto count = [&] {
        const auto body = http_request(port(), "GET", "/metrics").body;
        const std::string name = "hschool_arena_simulate_seconds_count ";
        const auto at = body.find(name);
        return at == std::string::npos ? -1.0 : std::stod(body.substr(at + name.size()));
    };
    EXPECT_EQ(count(), 0.0) << "no players yet";
    ArenaClient ann(port(), "Ann");
    ASSERT_TRUE(ann.joined());
    ASSERT_TRUE(ann.snapshot());
    ASSERT_TRUE(ann.snapshot());
    EXPECT_GE(count(), 2.0) << "one observation per snapshot sent";
}

}  // namespace
}  // namespace hschool::test::arena
