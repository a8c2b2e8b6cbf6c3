// The spectators' shared feed (issue 19 point 4): viewers in step share one diff per tick (the same
// message objects), a late or resynced viewer gets a keyframe and then the shared diff, a viewer that
// stops reading has its backlog dropped (bounded) instead of being closed, and after reading again
// every viewer's board is the full picture of the tick.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "../../sim/hns/hns_test_support.hpp"
#include "../../support/sprite_board.hpp"
#include "render/hns/scene.hpp"
#include "server/hns/contract/limits.hpp"
#include "server/hns/streams/spectator_feed.hpp"

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

class FakePeer final : public net::WsConnection {
public:
    explicit FakePeer(bool compact_stream = false) : compact(compact_stream) {}
    net::ConnectionId id() const override { return 1; }
    net::ConnectionRef ref() const override { return {}; }
    bool send(protocol::ByteView, bool) override { return true; }
    void close(std::uint16_t, const char*) override {}
    bool send_shared(const net::SharedMessagePtr& message) override {
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
    bool reader_lagging() const override { return lagging; }
    bool writer_behind(std::size_t) override { return false; }
    void on_writer_caught_up(std::function<void()>) override {}
    void speak(const net::WsProtocol&) override {}
    void reply(protocol::ByteView) override {}
    void read_all() {
        for (const auto& m : queued) {
            if (!compact) board.apply(m->payload());
            else ASSERT_EQ(compact_board.apply_compact(m->payload()), std::nullopt);
        }
        queued.clear();
    }

    const bool compact;
    bool lagging = false;  // the transport's delivery window is shut
    std::vector<net::SharedMessagePtr> queued;
    Board board;
    sprite_board::Board compact_board;
};

struct Spectator {
    explicit Spectator(bool compact = false) : peer(compact) {}
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
    for (std::size_t i = 0; i < spectators.size(); ++i)
        out.push_back({static_cast<int>(i), &spectators[i]->peer, &spectators[i]->own, spectators[i]->peer.compact});
    return out;
}

// Every spectator reads what was sent and its board shows the scene.
void expect_everyone_shows(const std::vector<std::unique_ptr<Spectator>>& spectators, const rh::Scene& scene) {
    const Board picture = picture_of(scene);
    for (const auto& s : spectators) {
        s->peer.read_all();
        expect_shows(s->peer.board, picture);
    }
}

std::uint32_t tick_of(const Match& match) { return static_cast<std::uint32_t>(match.sim.tick_count()); }

// A compact viewer's board draws what a fresh contract stream's board of the same scene draws.
void expect_same_picture(const sprite_board::Board& compact, const rh::Scene& scene) {
    sprite_board::Board contract;
    rh::Stream fresh;
    for (const auto& m : fresh.next(scene).ws_messages()) ASSERT_EQ(contract.apply_sprite_v1(m), std::nullopt);
    const auto a = contract.visible(), b = compact.visible();
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(std::tie(a[i].object, a[i].x, a[i].y, a[i].z, a[i].label), std::tie(b[i].object, b[i].x, b[i].y, b[i].z, b[i].label));
        EXPECT_TRUE(sprite_board::same_pixels(a[i].rgba, b[i].rgba)) << "object " << a[i].object;
    }
}

TEST(SpectatorFeed, ViewersInStepShareOneDiffPerTickAndSeeTheFullPicture) {
    Match match;
    std::vector<std::unique_ptr<Spectator>> spectators;
    for (int i = 0; i < 20; ++i) spectators.push_back(std::make_unique<Spectator>());
    SpectatorFeed feed;
    for (int tick = 0; tick < 40; ++tick) {
        match.step();
        const rh::Scene scene = rh::global_scene(match.sim);
        const SpectatorTick sent = feed.send(scene, viewers_of(spectators), tick_of(match));
        EXPECT_EQ(sent.deltas + sent.keyframes, 1u) << "tick " << tick;  // one encode, not twenty
        EXPECT_EQ(sent.keyframes, tick == 0 ? 1u : 0u);
        // The very same message objects for everyone: built and framed once.
        for (const auto& s : spectators) EXPECT_EQ(s->peer.queued, spectators[0]->peer.queued);
        expect_everyone_shows(spectators, scene);
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
        const SpectatorTick sent = feed.send(scene, viewers_of(spectators), tick_of(match));
        EXPECT_LE(sent.deltas, 1u);
        EXPECT_EQ(sent.keyframes, tick == 0 || tick % 20 == 10 ? 1u : 0u) << "tick " << tick;
        expect_everyone_shows(spectators, scene);
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
        resyncs += feed.send(rh::global_scene(match.sim), viewers_of(spectators), tick_of(match)).resyncs;
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
        const SpectatorTick sent = feed.send(rh::global_scene(match.sim), viewers_of(spectators), tick_of(match));
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
        const SpectatorTick sent = feed.send(scene, viewers_of(spectators), tick_of(match));
        EXPECT_EQ(sent.keyframes, i == 0 ? 1u : 0u);
        expect_everyone_shows(spectators, scene);
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
        const SpectatorTick sent = feed.send(scene, viewers_of(spectators), tick_of(match));
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
    feed.send(rh::global_scene(match.sim), viewers_of(spectators), tick_of(match));
    spectators[1]->own = rh::Stream{};  // what a restart does to every socket's stream
    match.step();
    EXPECT_EQ(feed.send(rh::global_scene(match.sim), viewers_of(spectators), tick_of(match)).keyframes, 1u);
    spectators.pop_back();
    match.step();
    const SpectatorTick sent = feed.send(rh::global_scene(match.sim), viewers_of(spectators), tick_of(match));
    EXPECT_EQ(sent.deltas, 1u);
    EXPECT_EQ(sent.keyframes, 0u);
}

TEST(SpectatorFeed, CompactViewersAreAGroupOfTheirOwnSharingOneEncodeAndDrawTheSamePicture) {
    Match match;
    std::vector<std::unique_ptr<Spectator>> spectators;
    for (int i = 0; i < 5; ++i) spectators.push_back(std::make_unique<Spectator>(i >= 2));
    SpectatorFeed feed;
    for (int tick = 0; tick < 60; ++tick) {
        match.step();
        if (tick == 30) spectators.push_back(std::make_unique<Spectator>(true));  // a late compact viewer
        const rh::Scene scene = rh::global_scene(match.sim);
        const SpectatorTick sent = feed.send(scene, viewers_of(spectators), tick_of(match));
        EXPECT_EQ(sent.deltas + sent.keyframes, tick == 0 ? 2u : tick == 30 ? 3u : 2u) << "tick " << tick;  // one per group
        EXPECT_GT(sent.compact_bytes, 0u);
        // The compact viewers in step share the very same messages.
        EXPECT_EQ(spectators[3]->peer.queued, spectators[2]->peer.queued);
        EXPECT_EQ(spectators[4]->peer.queued, spectators[2]->peer.queued);
        for (auto& s : spectators) s->peer.read_all();
        expect_shows(spectators[0]->peer.board, picture_of(scene));
        for (std::size_t i = 2; i < spectators.size(); ++i) {
            expect_same_picture(spectators[i]->peer.compact_board, scene);
            EXPECT_EQ(spectators[i]->peer.compact_board.last_mark()->tick, tick_of(match));
        }
    }
}

TEST(SpectatorFeed, ACompactViewerThatStopsReadingIsResyncedWithAFlaggedKeyframe) {
    Match match;
    std::vector<std::unique_ptr<Spectator>> spectators;
    for (int i = 0; i < 2; ++i) spectators.push_back(std::make_unique<Spectator>(true));
    FakePeer& slow = spectators[1]->peer;
    SpectatorFeed feed;
    std::size_t resyncs = 0, most = 0;
    int tick = 0;
    for (; tick < 3000 && resyncs == 0; ++tick) {
        match.step();
        resyncs += feed.send(rh::global_scene(match.sim), viewers_of(spectators), tick_of(match)).compact_resyncs;
        spectators[0]->peer.read_all();
        most = std::max(most, slow.shared_backlog());
    }
    ASSERT_EQ(resyncs, 1u) << "the slow viewer never overflowed in " << tick << " ticks";
    EXPECT_LE(most, kCompactBacklogBytes);
    EXPECT_EQ(feed.behind(), 1u);
    slow.read_all();  // what was being written still arrives; then it has caught up
    match.step();
    const rh::Scene scene = rh::global_scene(match.sim);
    EXPECT_EQ(feed.send(scene, viewers_of(spectators), tick_of(match)).keyframes, 1u);
    slow.read_all();
    namespace hc = protocol::hns_compact;
    EXPECT_EQ(slow.compact_board.last_mark()->flags, hc::frame_flag::kKeyframe | hc::frame_flag::kResync);
    expect_same_picture(slow.compact_board, scene);
    EXPECT_EQ(feed.behind(), 0u);
}

TEST(SpectatorFeed, AViewerWhoseReaderLagsIsDroppedAtOnceAndKeyedOnlyOnceItCatchesUp) {
    Match match;
    std::vector<std::unique_ptr<Spectator>> spectators;
    spectators.push_back(std::make_unique<Spectator>(false));
    spectators.push_back(std::make_unique<Spectator>(true));
    SpectatorFeed feed;
    match.step();
    feed.send(rh::global_scene(match.sim), viewers_of(spectators), tick_of(match));
    for (auto& s : spectators) s->peer.read_all();
    // Its kernel buffers hide a backlog: small as its lane is, it is resynced, not fed.
    for (auto& s : spectators) s->peer.lagging = true;
    match.step();
    const SpectatorTick dropped = feed.send(rh::global_scene(match.sim), viewers_of(spectators), tick_of(match));
    EXPECT_EQ(dropped.resyncs, 1u);
    EXPECT_EQ(dropped.compact_resyncs, 1u);
    for (auto& s : spectators) s->peer.read_all();  // its lane is empty, but its reader still lags
    match.step();
    const SpectatorTick waiting = feed.send(rh::global_scene(match.sim), viewers_of(spectators), tick_of(match));
    EXPECT_EQ(waiting.keyframes, 0u);
    EXPECT_EQ(waiting.deltas, 0u);
    EXPECT_EQ(feed.behind(), 2u);
    for (auto& s : spectators) s->peer.lagging = false;
    match.step();
    const rh::Scene scene = rh::global_scene(match.sim);
    EXPECT_EQ(feed.send(scene, viewers_of(spectators), tick_of(match)).keyframes, 2u);
    for (auto& s : spectators) s->peer.read_all();
    expect_shows(spectators[0]->peer.board, picture_of(scene));
    expect_same_picture(spectators[1]->peer.compact_board, scene);
}

}  // namespace
}  // namespace hschool::server::hns
