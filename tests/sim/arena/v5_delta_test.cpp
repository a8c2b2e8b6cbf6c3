// v5 deltas: the encoder's Frames, applied by the replica, reproduce each observer's window
// exactly after every Frame, whatever the observers skip; the replica refuses broken streams.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <set>

#include "sim/arena/arena_world.hpp"
#include "sim/arena/v5/delta_encoder.hpp"
#include "sim/arena/v5/replica.hpp"

namespace hschool::sim::arena::v5 {
namespace {

namespace p5 = protocol::v5;

TEST(V5Delta, UpdatesTakeTheSmallestForm) {
    const Visible from{1, 9, 1000, 1000, 0xAA};
    p5::Update u;
    EXPECT_FALSE(make_update(from, from, u));
    ASSERT_TRUE(make_update(from, {1, 9, 1096, 1000, 0xAA}, u));
    EXPECT_EQ(u, (p5::Update{1, p5::form::kDx, 96, 0, 0, 0, 0, 0}));
    ASSERT_TRUE(make_update(from, {1, 9, 1000, 872, 0xAA}, u));
    EXPECT_EQ(u, (p5::Update{1, p5::form::kDy, 0, -128, 0, 0, 0, 0}));
    ASSERT_TRUE(make_update(from, {1, 9, 1068, 932, 0xAA}, u));
    EXPECT_EQ(u, (p5::Update{1, p5::form::kDxDy, 68, -68, 0, 0, 0, 0}));
    ASSERT_TRUE(make_update(from, {1, 9, 1128, 1000, 0xAA}, u));  // a push-out or a coalesced delta
    EXPECT_EQ(u, (p5::Update{1, p5::form::kFields, 0, 0, p5::fields::kQx, 1128, 0, 0}));
    ASSERT_TRUE(make_update(from, {1, 9, 1001, 1000, 0xBB}, u));
    EXPECT_EQ(u, (p5::Update{1, p5::form::kFields, 0, 0, p5::fields::kQx | p5::fields::kColour, 1001, 0, 0xBB}));
}

p5::Frame keyframe(std::uint32_t tick) {
    p5::Frame f;
    f.tick = tick;
    f.flags = p5::frame_flags::kKeyframe;
    f.enters = {{3, 30, 10, 10, 1}};
    return f;
}

TEST(V5Replica, RefusesStreamsThatBreakTheSessionRules) {
    Replica r;
    p5::Frame f = keyframe(5);
    f.flags = 0;
    EXPECT_EQ(r.apply(f), ApplyError::FirstNotKeyframe);
    f = keyframe(5);
    f.base_tick = 4;
    EXPECT_EQ(r.apply(f), ApplyError::FirstNotKeyframe);
    ASSERT_EQ(r.apply(keyframe(5)), std::nullopt);

    p5::Frame next;
    next.tick = 7;
    next.base_tick = 6;
    EXPECT_EQ(r.apply(next), ApplyError::BrokenChain);
    next.base_tick = 5;
    next.leaves = {4};
    EXPECT_EQ(r.apply(next), ApplyError::UnknownSlot);
    next.leaves = {};
    next.enters = {{3, 31, 0, 0, 0}};
    EXPECT_EQ(r.apply(next), ApplyError::SlotTaken);
    next.enters = {{16384, 31, 0, 0, 0}};
    EXPECT_EQ(r.apply(next), ApplyError::SlotOutOfRange);
    next.enters = {{8, 31, 0, 0, 0}, {8, 32, 0, 0, 0}};
    EXPECT_EQ(r.apply(next), ApplyError::RepeatedSlot);
    next.enters = {};
    next.updates = {{3, p5::form::kDx, -11, 0, 0, 0, 0, 0}};
    EXPECT_EQ(r.apply(next), ApplyError::QuantumOutOfRange);
    next.updates = {{9, p5::form::kDx, 1, 0, 0, 0, 0, 0}};
    EXPECT_EQ(r.apply(next), ApplyError::UnknownSlot);
    EXPECT_EQ(r.entries(), (std::vector<Visible>{{3, 30, 10, 10, 1}})) << "a refused Frame changes nothing";

    next.leaves = {3};
    next.enters = {{3, 33, 5, 6, 7}};  // reuse within one Frame: leave, then enter
    next.updates = {{3, p5::form::kDxDy, 1, 1, 0, 0, 0, 0}};
    ASSERT_EQ(r.apply(next), std::nullopt);
    EXPECT_EQ(r.entries(), (std::vector<Visible>{{3, 33, 6, 7, 7}}));
    EXPECT_EQ(r.tick(), 7u);
}

TEST(V5Delta, AConnectionSkippedPastTheKeyframeAgeLetsGoOfItsBaseAndKeepsTheChain) {
    const ArenaSettings settings;
    auto at = [&](std::uint32_t tick) {
        return std::make_shared<const TickArtifacts>(build_artifacts(tick, settings, {{0, 1, 100, 100, 0xAA, 0, 0, 0}}));
    };
    DeltaEncoder encoder;
    Replica replica;
    std::weak_ptr<const TickArtifacts> first;
    {
        const auto t = at(1);
        first = t;
        ASSERT_EQ(replica.apply(encoder.next(t, 0)), std::nullopt);
    }
    for (std::uint32_t tick = 2; tick <= 1 + kKeyframeAfterTicks; ++tick) encoder.skip(tick);
    EXPECT_TRUE(encoder.holds_base()) << "a base still young enough to delta from is kept";
    EXPECT_FALSE(first.expired());
    encoder.skip(2 + kKeyframeAfterTicks);
    EXPECT_FALSE(encoder.holds_base());
    EXPECT_TRUE(first.expired()) << "a connection that stays behind pins no artefacts";
    const p5::Frame frame = encoder.next(at(3 + kKeyframeAfterTicks), 0);
    EXPECT_TRUE(frame.flags & p5::frame_flags::kKeyframe);
    EXPECT_EQ(frame.base_tick, 1u) << "a keyframe still names the Frame before it";
    EXPECT_EQ(replica.apply(frame), std::nullopt);
    EXPECT_EQ(replica.size(), 1u);
}

// The property test's world: players join, leave (slots reused lowest-first) and press keys.
struct Arena {
    ArenaWorld world;
    std::map<std::uint32_t, std::uint16_t> slot_of;  // player id → slot
    std::set<std::uint16_t> free;
    std::uint16_t next_slot = 0;

    explicit Arena(const ArenaSettings& s) : world(s) {}
    std::uint32_t join() {
        const std::uint32_t id = world.apply(JoinCommand{""});
        std::uint16_t slot = next_slot;
        if (!free.empty()) slot = *free.begin(), free.erase(free.begin());
        else ++next_slot;
        slot_of[id] = slot;
        return id;
    }
    void leave(std::uint32_t id) {
        world.apply(LeaveCommand{id});
        free.insert(slot_of.at(id));
        slot_of.erase(id);
    }
    TickArtifacts artifacts(const TickArtifacts* previous = nullptr) const {
        protocol::v1::Snapshot snap;
        world.capture_snapshot(snap);
        std::vector<PlayerInput> players;
        for (const auto& e : snap.entities)
            if (e.kind == protocol::v1::kind::kPlayer)
                players.push_back({slot_of.at(e.id), e.id, e.x, e.y, e.colour, e.id * 3, 1, 2});
        return build_artifacts(world.tick(), world.settings(), players, previous);
    }
    protocol::v1::EntityState entity(std::uint32_t id) const {
        protocol::v1::Snapshot snap;
        world.capture_snapshot(snap);
        for (const auto& e : snap.entities)
            if (e.id == id) return e;
        return {};
    }
};

enum class Pattern { Every, RandomSkips, LongStalls, EveryThird };

struct Observer {
    std::uint32_t id = 0;
    Pattern pattern = Pattern::Every;
    DeltaEncoder encoder;  // fed artefacts with deltas: codes most Frames from them
    Replica replica;
    DeltaEncoder merging;  // fed the same ticks without deltas: always merges
    Replica merged;
    int stalled_until = 0;
    int frames = 0;
    std::uint32_t last_far = 0;
};

bool sorted_unique(const std::vector<std::uint16_t>& slots) {
    return std::adjacent_find(slots.begin(), slots.end(), std::greater_equal<>()) == slots.end();
}

// The protocol's rule: a slot at most once per section (the order is free).
void check_sections_unique(const p5::Frame& f) {
    std::vector<std::uint16_t> l = f.leaves, e, u;
    for (const auto& x : f.enters) e.push_back(x.slot);
    for (const auto& x : f.updates) u.push_back(x.slot);
    for (auto* v : {&l, &e, &u}) std::sort(v->begin(), v->end());
    EXPECT_TRUE(sorted_unique(l) && sorted_unique(e) && sorted_unique(u));
}

TEST(V5Delta, PropertyAppliedFramesReproduceTheVisibleSetEveryFrame) {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        std::mt19937_64 rng(seed);
        ArenaSettings settings;
        settings.seed = seed;
        Arena arena(settings);
        std::vector<std::uint32_t> bots;
        std::vector<std::unique_ptr<Observer>> observers;
        std::size_t frames_checked = 0, coalesced = 0, keyframes_after_join = 0, frames_from_deltas = 0;
        std::shared_ptr<const TickArtifacts> last_artifacts;
        for (int tick = 0; tick < 700; ++tick) {
            // Joins and leaves, with bursts so slots are reused within one tick.
            const int joins = static_cast<int>(rng() % (tick < 100 ? 4 : 2));
            for (int i = 0; i < joins && arena.slot_of.size() < 150; ++i) bots.push_back(arena.join());
            if (!bots.empty() && rng() % 3 == 0) {
                const std::size_t at = rng() % bots.size();
                arena.leave(bots[at]);
                bots.erase(bots.begin() + static_cast<std::ptrdiff_t>(at));
            }
            if (observers.size() < 8 && rng() % 40 == 0) {
                auto o = std::make_unique<Observer>();
                o->id = arena.join();
                o->pattern = static_cast<Pattern>(observers.size() % 4);
                observers.push_back(std::move(o));
            }
            if (!observers.empty() && rng() % 150 == 0) {  // an observer disconnects
                arena.leave(observers.front()->id);
                observers.erase(observers.begin());
            }
            for (std::uint32_t id : bots)
                if (rng() % 10 == 0) arena.world.apply(InputCommand{id, static_cast<std::uint32_t>(tick), static_cast<std::uint8_t>(rng() % 16)});
            for (const auto& o : observers)
                if (rng() % 5 == 0) arena.world.apply(InputCommand{o->id, static_cast<std::uint32_t>(tick), static_cast<std::uint8_t>(rng() % 16)});
            arena.world.step();

            const auto t = std::make_shared<const TickArtifacts>(arena.artifacts(last_artifacts.get()));
            const auto plain = std::make_shared<const TickArtifacts>(arena.artifacts());
            last_artifacts = t;
            for (const auto& o : observers) {
                bool skip = false;
                switch (o->pattern) {
                    case Pattern::Every: break;
                    case Pattern::RandomSkips: skip = rng() % 2 == 0; break;
                    case Pattern::LongStalls:
                        if (tick >= o->stalled_until && rng() % 60 == 0) o->stalled_until = tick + 20 + static_cast<int>(rng() % 30);
                        skip = tick < o->stalled_until;
                        break;
                    case Pattern::EveryThird: skip = tick % 3 != 0; break;
                }
                if (skip) continue;
                const std::uint32_t previous = o->replica.tick();
                const std::uint64_t from_deltas = o->encoder.frames_from_deltas();
                const p5::Frame frame = o->encoder.next(t, arena.slot_of.at(o->id));
                frames_from_deltas += o->encoder.frames_from_deltas() - from_deltas;
                const auto bytes = p5::encode(frame);
                const auto decoded = p5::decode_server(bytes);
                ASSERT_TRUE(decoded.ok());
                const auto& got = std::get<p5::Frame>(*decoded);
                check_sections_unique(got);
                const auto error = o->replica.apply(got);
                ASSERT_EQ(error, std::nullopt) << describe(*error) << " at tick " << tick;
                std::vector<Visible> expected;
                t->visible_in(o->encoder.window(), expected);
                ASSERT_EQ(o->replica.entries(), expected) << "tick " << tick;

                const p5::Frame by_merge = o->merging.next(plain, arena.slot_of.at(o->id));
                check_sections_unique(by_merge);
                ASSERT_EQ(o->merged.apply(by_merge), std::nullopt) << "tick " << tick;
                ASSERT_EQ(o->merged.entries(), expected) << "tick " << tick;
                EXPECT_EQ(by_merge.ack_seq, got.ack_seq);
                EXPECT_EQ(by_merge.flags, got.flags) << "both paths send keyframes and far grids alike";
                const auto self = arena.entity(o->id);
                EXPECT_EQ(got.self_x, self.x);
                EXPECT_EQ(got.self_y, self.y);
                EXPECT_EQ(got.ack_seq, o->id * 3);
                if (got.flags & p5::frame_flags::kFarGrid) {
                    EXPECT_EQ(o->replica.far(), t->far);
                    o->last_far = got.tick;
                }
                EXPECT_LE(got.tick - o->last_far, kFarEvery) << "the far grid is at most kFarEvery ticks old";
                if (o->frames == 0) {
                    EXPECT_TRUE(got.flags & p5::frame_flags::kKeyframe);
                    ++keyframes_after_join;
                }
                if (o->frames > 0 && got.tick - previous > 1) ++coalesced;
                ++o->frames;
                ++frames_checked;
            }
        }
        EXPECT_GT(frames_checked, 1000u);
        EXPECT_GT(coalesced, 50u);
        EXPECT_GT(keyframes_after_join, 3u);
        // Observers that read every tick are coded from the deltas; the others merge.
        EXPECT_GT(frames_from_deltas, frames_checked / 4);
        EXPECT_LT(frames_from_deltas, frames_checked);
    }
}

}  // namespace
}  // namespace hschool::sim::arena::v5
