// The spectators' shared feed (issue 19 point 4): viewers in step share one diff per tick (the same
// message objects), a late or resynced viewer gets a keyframe and then the shared diff, a viewer that
// stops reading has its backlog dropped (bounded) instead of being closed, and after reading again
// every viewer's board is the full picture of the tick.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "../../sim/hns/hns_test_support.hpp"
#include "render/hns/scene.hpp"
#include "server/hns/limits.hpp"
#include "server/hns/spectator_feed.hpp"

namespace hschool::server::hns {
namespace {

namespace sv = protocol::sprite_v1;
namespace rh = render::hns;

// What a strict client holds: a header's 0x04 forgets everything, sprites included.
struct Board {
    std::map<std::uint16_t, sv::DefineSprite> sprites;
    std::map<std::uint16_t, sv::DefineObject> objects;

    void apply(protocol::ByteView message) {
        auto decoded = sv::decode_server(message);
        ASSERT_TRUE(decoded);
        for (auto& m : *decoded) {
            if (auto* s = std::get_if<sv::DefineSprite>(&m)) sprites[s->sprite_id] = *s;
            else if (auto* o = std::get_if<sv::DefineObject>(&m)) objects[o->object_id] = *o;
            else if (auto* d = std::get_if<sv::DeleteObject>(&m)) objects.erase(d->object_id);
            else if (std::holds_alternative<sv::ClearObjects>(m)) sprites.clear(), objects.clear();
        }
    }
};

// The full picture of a scene: what a fresh stream draws.
Board picture_of(const rh::Scene& scene, bool sprites_off = false) {
    rh::Stream fresh;
    fresh.set_sprites_off(sprites_off);
    Board board;
    for (const auto& m : fresh.next(scene).ws_messages()) board.apply(m);
    return board;
}

// Every object of the picture is on the board, over the picture's own sprite.
void expect_shows(const Board& board, const Board& picture) {
    EXPECT_EQ(board.objects, picture.objects);
    for (const auto& [id, object] : picture.objects) {
        auto have = board.sprites.find(object.sprite_id);
        ASSERT_NE(have, board.sprites.end()) << "sprite " << object.sprite_id << " of object " << id;
        EXPECT_EQ(have->second, picture.sprites.at(object.sprite_id));
    }
}

class FakePeer final : public Peer {
public:
    bool send(protocol::ByteView, bool) override { return true; }
    void close(std::uint16_t, const char*) override {}
    bool send_shared(const SharedMessagePtr& message) override {
        queued.push_back(message);
        return true;
    }
    std::size_t shared_backlog() const override {
        std::size_t bytes = 0;
        for (const auto& m : queued) bytes += m->payload().size();
        return bytes;
    }
    // Like the real socket: the message the writer has already taken still goes (and still counts).
    void drop_shared_backlog() override {
        if (queued.size() > 1) queued.resize(1);
    }
    void read_all() {
        for (const auto& m : queued) board.apply(m->payload());
        queued.clear();
    }

    std::vector<SharedMessagePtr> queued;
    Board board;
};

struct Spectator {
    FakePeer peer;
    rh::Stream own;
};

struct Match {
    sim::hns::Sim sim = hns_test::make_sim("certification", 42);
    std::mt19937 rng{7};
    Match() { hns_test::join_six(sim); }
    void step() {
        std::vector<sim::hns::Input> cur(6), prev(6);
        for (auto& in : cur) in.mask = static_cast<std::uint8_t>(rng() & 0xFF);
        sim.step(cur, prev);
    }
};

std::vector<SpectatorFeed::Viewer> viewers_of(std::vector<std::unique_ptr<Spectator>>& spectators) {
    std::vector<SpectatorFeed::Viewer> out;
    for (std::size_t i = 0; i < spectators.size(); ++i) out.push_back({static_cast<int>(i), &spectators[i]->peer, &spectators[i]->own});
    return out;
}

TEST(SpectatorFeed, ViewersInStepShareOneDiffPerTickAndSeeTheFullPicture) {
    Match match;
    std::vector<std::unique_ptr<Spectator>> spectators;
    for (int i = 0; i < 20; ++i) spectators.push_back(std::make_unique<Spectator>());
    SpectatorFeed feed;
    for (int tick = 0; tick < 40; ++tick) {
        match.step();
        const rh::Scene scene = rh::global_scene(match.sim);
        const SpectatorTick sent = feed.send(scene, viewers_of(spectators));
        EXPECT_EQ(sent.deltas + sent.keyframes, 1u) << "tick " << tick;  // one encode, not twenty
        EXPECT_EQ(sent.keyframes, tick == 0 ? 1u : 0u);
        // The very same message objects for everyone: built and framed once.
        for (const auto& s : spectators) EXPECT_EQ(s->peer.queued, spectators[0]->peer.queued);
        const Board picture = picture_of(scene);
        for (const auto& s : spectators) {
            s->peer.read_all();
            expect_shows(s->peer.board, picture);
        }
    }
}

TEST(SpectatorFeed, ALateViewerGetsAKeyframeThenTheSharedDiff) {
    Match match;
    std::vector<std::unique_ptr<Spectator>> spectators;
    spectators.push_back(std::make_unique<Spectator>());
    SpectatorFeed feed;
    for (int tick = 0; tick < 80; ++tick) {
        match.step();
        if (tick % 20 == 10) spectators.push_back(std::make_unique<Spectator>());
        const rh::Scene scene = rh::global_scene(match.sim);
        const SpectatorTick sent = feed.send(scene, viewers_of(spectators));
        EXPECT_LE(sent.deltas, 1u);
        EXPECT_EQ(sent.keyframes, tick == 0 || tick % 20 == 10 ? 1u : 0u) << "tick " << tick;
        const Board picture = picture_of(scene);
        for (const auto& s : spectators) {
            s->peer.read_all();
            expect_shows(s->peer.board, picture);
        }
    }
}

TEST(SpectatorFeed, AViewerThatStopsReadingIsResyncedWithBoundedBacklogNotClosed) {
    Match match;
    std::vector<std::unique_ptr<Spectator>> spectators;
    for (int i = 0; i < 2; ++i) spectators.push_back(std::make_unique<Spectator>());
    FakePeer& slow = spectators[1]->peer;
    SpectatorFeed feed;
    std::size_t resyncs = 0, most = 0;
    int tick = 0;
    for (; tick < 400 && resyncs == 0; ++tick) {
        match.step();
        resyncs += feed.send(rh::global_scene(match.sim), viewers_of(spectators)).resyncs;
        spectators[0]->peer.read_all();
        most = std::max(most, slow.shared_backlog());
    }
    ASSERT_EQ(resyncs, 1u) << "the slow viewer never overflowed in " << tick << " ticks";
    EXPECT_LE(most, kSpectatorBacklogBytes + 2 * sv::kChunkBytes);
    EXPECT_EQ(feed.behind(), 1u);
    // Still not reading: only the message being written is left, nothing more is queued, and no
    // keyframe is encoded for it.
    const std::size_t in_flight = slow.shared_backlog();
    EXPECT_EQ(slow.queued.size(), 1u);
    for (int i = 0; i < 5; ++i) {
        match.step();
        const SpectatorTick sent = feed.send(rh::global_scene(match.sim), viewers_of(spectators));
        EXPECT_EQ(sent.keyframes, 0u);
        EXPECT_EQ(sent.deltas, 1u);
        spectators[0]->peer.read_all();
        EXPECT_EQ(slow.shared_backlog(), in_flight);
    }
    // It reads again (its socket drained): the next tick brings a keyframe, then the shared diff.
    slow.read_all();
    for (int i = 0; i < 10; ++i) {
        match.step();
        const rh::Scene scene = rh::global_scene(match.sim);
        const SpectatorTick sent = feed.send(scene, viewers_of(spectators));
        EXPECT_EQ(sent.keyframes, i == 0 ? 1u : 0u);
        const Board picture = picture_of(scene);
        for (const auto& s : spectators) {
            s->peer.read_all();
            expect_shows(s->peer.board, picture);
        }
    }
    EXPECT_EQ(feed.behind(), 0u);
}

TEST(SpectatorFeed, SpritesOffViewersAreTheirOwnGroupAndGetNoPixels) {
    Match match;
    std::vector<std::unique_ptr<Spectator>> spectators;
    for (int i = 0; i < 3; ++i) spectators.push_back(std::make_unique<Spectator>());
    spectators[2]->own.set_sprites_off(true);
    SpectatorFeed feed;
    for (int tick = 0; tick < 10; ++tick) {
        match.step();
        const rh::Scene scene = rh::global_scene(match.sim);
        const SpectatorTick sent = feed.send(scene, viewers_of(spectators));
        EXPECT_EQ(sent.deltas + sent.keyframes, 2u);  // one per group
        for (auto& s : spectators) s->peer.read_all();
        expect_shows(spectators[0]->peer.board, picture_of(scene));
        expect_shows(spectators[2]->peer.board, picture_of(scene, true));
        for (const auto& [id, sprite] : spectators[2]->peer.board.sprites) EXPECT_TRUE(sprite.pixels.empty()) << id;
    }
}

TEST(SpectatorFeed, AResetOwnStreamMeansAKeyframeAndALeftViewerIsForgotten) {
    Match match;
    std::vector<std::unique_ptr<Spectator>> spectators;
    for (int i = 0; i < 2; ++i) spectators.push_back(std::make_unique<Spectator>());
    SpectatorFeed feed;
    match.step();
    feed.send(rh::global_scene(match.sim), viewers_of(spectators));
    spectators[1]->own = rh::Stream{};  // what a restart does to every socket's stream
    match.step();
    EXPECT_EQ(feed.send(rh::global_scene(match.sim), viewers_of(spectators)).keyframes, 1u);
    spectators.pop_back();
    match.step();
    const SpectatorTick sent = feed.send(rh::global_scene(match.sim), viewers_of(spectators));
    EXPECT_EQ(sent.deltas, 1u);
    EXPECT_EQ(sent.keyframes, 0u);
}

}  // namespace
}  // namespace hschool::server::hns
