// The retained-mode diff on hand-made scenes: header once, sprites only when size or label change,
// player placements deduplicated, global placements every frame, deletes for vanished ids,
// bands on the first frame only, a restart, Sprites Off, chunking on message boundaries.
#include <gtest/gtest.h>

#include "render/hns/ids.hpp"
#include "render_test_support.hpp"

namespace {

using namespace render_test;
namespace rh = hschool::render::hns;

rh::SceneSprite tiny_sprite(std::uint16_t id, std::string label, bool always = false) {
    const Bytes rgba{1, 2, 3, 255};
    return rh::SceneSprite{id, 1, 1, std::make_shared<const Bytes>(sv::compress_rgba(rgba)), std::move(label), always};
}

rh::SceneItem item(std::uint16_t object, std::int16_t x, std::uint16_t sprite, std::string label, bool always = false) {
    return rh::SceneItem{tiny_sprite(sprite, std::move(label), always), sv::DefineObject{object, x, 5, 6, 0, sprite}, false};
}

rh::Scene scene(bool dedup, std::vector<rh::SceneItem> items) { return rh::Scene{720, 400, dedup, std::move(items)}; }

TEST(SpriteStream, TheFirstFrameStartsWithTheHeaderAndLaterFramesDoNot) {
    rh::Stream stream;
    const auto first = stream.next(scene(true, {}));
    EXPECT_EQ(hex(first.bytes), "04 06 00 00 01 05 00 D0 02 90 01");
    const auto second = stream.next(scene(true, {}));
    EXPECT_TRUE(second.bytes.empty());
    // Nothing changed: still exactly one (empty) WebSocket message, since clients count messages.
    ASSERT_EQ(second.ws_messages().size(), 1u);
    EXPECT_TRUE(second.ws_messages()[0].empty());
}

TEST(SpriteStream, PlayerPlacementsAreDeduplicatedAndAMoveSendsOnlyTheMovedObject) {
    rh::Stream stream;
    stream.next(scene(true, {item(1000, 10, 100, "a"), item(1001, 20, 101, "b")}));
    EXPECT_TRUE(stream.next(scene(true, {item(1000, 10, 100, "a"), item(1001, 20, 101, "b")})).bytes.empty());
    const auto moved = messages(stream.next(scene(true, {item(1000, 10, 100, "a"), item(1001, 21, 101, "b")})));
    ASSERT_EQ(moved.size(), 1u);
    EXPECT_EQ(std::get<sv::DefineObject>(moved[0]), (sv::DefineObject{1001, 21, 5, 6, 0, 101}));
}

TEST(SpriteStream, GlobalPlacementsAreResentEveryFrameButSpritesAreNot) {
    rh::Stream stream;
    stream.next(scene(false, {item(2200, 10, 2000, "crate box1")}));
    const auto again = messages(stream.next(scene(false, {item(2200, 10, 2000, "crate box1")})));
    ASSERT_EQ(again.size(), 1u);
    EXPECT_TRUE(std::holds_alternative<sv::DefineObject>(again[0]));
}

TEST(SpriteStream, ASpriteIsResentWhenItsLabelChangesOrWhenItAlwaysIs) {
    rh::Stream stream;
    stream.next(scene(true, {item(1000, 10, 100, "cog HIDER own aim 0"), item(2650, 0, 2600, "carry tether 0 1,1", true)}));
    const auto next =
        messages(stream.next(scene(true, {item(1000, 10, 100, "cog HIDER own aim 6"), item(2650, 0, 2600, "carry tether 0 1,1", true)})));
    const auto sprites = only<sv::DefineSprite>(next);
    ASSERT_EQ(sprites.size(), 2u);
    EXPECT_EQ(sprites[0].label, "cog HIDER own aim 6");
    EXPECT_EQ(sprites[1].label, "carry tether 0 1,1");
    EXPECT_TRUE(only<sv::DefineObject>(next).empty());  // neither placement moved
}

TEST(SpriteStream, AVanishedObjectIsDeletedAndResentWhenItReturns) {
    rh::Stream stream;
    stream.next(scene(true, {item(1000, 10, 100, "a"), item(2320, 5, 2300, "padlock")}));
    const auto gone = messages(stream.next(scene(true, {item(1000, 10, 100, "a")})));
    ASSERT_EQ(gone.size(), 1u);
    EXPECT_EQ(std::get<sv::DeleteObject>(gone[0]).object_id, 2320);
    const auto back = messages(stream.next(scene(true, {item(1000, 10, 100, "a"), item(2320, 5, 2300, "padlock")})));
    ASSERT_EQ(back.size(), 1u);  // the sprite is still known; only the placement comes back
    EXPECT_EQ(std::get<sv::DefineObject>(back[0]).object_id, 2320);
}

TEST(SpriteStream, FirstFrameOnlyItemsAreSentOnceAndNeverDeleted) {
    rh::Stream stream;
    rh::SceneItem band = item(40, 0, 30, "map band 0");
    band.first_frame_only = true;
    const auto first = messages(stream.next(scene(false, {band})));
    EXPECT_EQ(only<sv::DefineObject>(first).size(), 1u);
    EXPECT_TRUE(stream.next(scene(false, {band})).bytes.empty());
}

// A socket that moves to another scene (a seat turned manual) restarts its stream: the header and
// the first-frame-only bands come again, and Sprites Off stays on.
TEST(SpriteStream, ARestartedStreamStartsOverWithTheHeaderAndTheBandsAndKeepsSpritesOff) {
    rh::Stream stream;
    stream.set_sprites_off(true);
    rh::SceneItem band = item(40, 0, 30, "map band 0");
    band.first_frame_only = true;
    stream.next(scene(true, {band, item(1000, 10, 100, "cog")}));
    ASSERT_TRUE(stream.next(scene(true, {band, item(1000, 10, 100, "cog")})).bytes.empty());
    stream.restart();
    const auto again = stream.next(scene(true, {band, item(1000, 10, 100, "cog")}));
    EXPECT_EQ(hex(again.bytes, 0, 11), "04 06 00 00 01 05 00 D0 02 90 01");
    const auto objects = only<sv::DefineObject>(messages(again));
    ASSERT_EQ(objects.size(), 2u);
    EXPECT_EQ(objects[0].object_id, 40);
    const auto sprites = only<sv::DefineSprite>(messages(again));
    ASSERT_EQ(sprites.size(), 2u);
    EXPECT_TRUE(sprites[0].pixels.empty()) << "Sprites Off was forgotten";
    EXPECT_TRUE(stream.sprites_off());
}

TEST(SpriteStream, SpritesOffKeepsIdSizeAndLabelButNoPixels) {
    rh::Stream stream;
    stream.set_sprites_off(true);
    const auto sprites = only<sv::DefineSprite>(messages(stream.next(scene(true, {item(1000, 10, 100, "cog SEEKER own aim 128")}))));
    ASSERT_EQ(sprites.size(), 1u);
    EXPECT_TRUE(sprites[0].pixels.empty());
    EXPECT_EQ(sprites[0].label, "cog SEEKER own aim 128");
    EXPECT_EQ(sprites[0].width, 1);
}

TEST(SpriteStream, ChunksEndOnMessageBoundariesAndAddUpToThePacket) {
    rh::Stream stream;
    std::vector<rh::SceneItem> items;
    for (std::uint16_t i = 0; i < 40; ++i) items.push_back(item(static_cast<std::uint16_t>(1000 + i), 1, 100, "x"));
    const auto frame = stream.next(scene(false, items));
    const std::size_t cap = 100;
    const auto chunks = frame.ws_messages(cap);
    ASSERT_GT(chunks.size(), 1u);
    Bytes joined;
    for (const auto& chunk : chunks) {
        EXPECT_LE(chunk.size(), cap);
        EXPECT_TRUE(sv::decode_server_checked(chunk).ok());  // no message is cut
        joined.insert(joined.end(), chunk.begin(), chunk.end());
    }
    EXPECT_EQ(joined, frame.bytes);
}

TEST(SpriteStream, APacketOverTheRealCapIsSplitAtTheLastBoundaryBeforeIt) {
    // Two sprites of noise, each about 600 KB compressed: 900,000 bytes cannot hold both.
    std::vector<rh::SceneItem> items;
    for (std::uint16_t i = 0; i < 2; ++i) {
        Bytes rgba(400 * 400 * 4);
        std::uint32_t state = 12345u + i;
        for (auto& b : rgba) b = static_cast<std::uint8_t>((state = state * 1103515245u + 12345u) >> 24);
        rh::SceneSprite s{static_cast<std::uint16_t>(10 + i), 400, 400, std::make_shared<const Bytes>(sv::compress_rgba(rgba)), "noise", false};
        items.push_back({s, sv::DefineObject{static_cast<std::uint16_t>(20 + i), 0, 0, 0, 0, s.id}, false});
    }
    rh::Stream stream;
    const auto frame = stream.next(scene(false, items));
    ASSERT_GT(frame.bytes.size(), sv::kChunkBytes);
    const auto chunks = frame.ws_messages();
    ASSERT_EQ(chunks.size(), 2u);
    // The first chunk closes just before the second sprite's Define Sprite.
    EXPECT_EQ(chunks[0].size(), frame.message_ends[4]);
    EXPECT_LE(chunks[0].size(), sv::kChunkBytes);
    EXPECT_EQ(chunks[1].front(), sv::id::kDefineSprite);
}

}  // namespace
