// The compact watch stream (issue 31) against the contract's global stream: for whole recorded
// matches, what a receiver of the compact stream would draw equals, object by object and pixel by
// pixel, what a receiver of /global draws at the same tick; also for viewers that join late, that
// skip frames and are resynced, and with a dictionary small enough to forget and reuse ids.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <set>

#include "render/hns/compact_stream.hpp"
#include "render/hns/ids.hpp"
#include "render/hns/scene.hpp"
#include "render_test_support.hpp"
#include "sim/hns/match.hpp"
#include "../support/sprite_board.hpp"

namespace {

using namespace render_test;
namespace rh = hschool::render::hns;
namespace hc = hschool::protocol::hns_compact;
using sprite_board::Board;
using sprite_board::Visible;

void apply_contract(Board& board, const rh::Frame& frame) {
    for (const auto& m : frame.ws_messages()) ASSERT_EQ(board.apply_sprite_v1(m), std::nullopt);
}

void apply_compact(Board& board, const rh::Frame& frame) {
    for (const auto& m : frame.ws_messages()) ASSERT_EQ(board.apply_compact(m), std::nullopt);
}

// The two boards would draw the same: the same objects in the same order and places, with the same
// size, label and pixels each.
void expect_same_board(const Board& contract, const Board& compact, int tick) {
    const auto a = contract.visible(), b = compact.visible();
    ASSERT_EQ(a.size(), b.size()) << "tick " << tick;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const Visible &x = a[i], &y = b[i];
        ASSERT_EQ(x.object, y.object) << "tick " << tick;
        EXPECT_EQ(std::tie(x.x, x.y, x.z, x.layer, x.width, x.height), std::tie(y.x, y.y, y.z, y.layer, y.width, y.height))
            << "tick " << tick << " object " << x.object;
        EXPECT_EQ(x.label, y.label) << "tick " << tick << " object " << x.object;
        ASSERT_TRUE(sprite_board::same_pixels(x.rgba, y.rgba)) << "tick " << tick << " object " << x.object;
    }
}

// A whole certification match (seed 42, six burrow seats), one callback per tick with its sim.
void each_tick(const std::function<void(const hns::Sim&)>& at_tick, const char* variant = "certification") {
    auto config = hns::variant_config(variant);
    ASSERT_TRUE(config) << config.error;
    config->seed = 42;
    auto pinned = hns::resolve_room_spec(*config);
    ASSERT_TRUE(pinned) << pinned.error;
    const auto outcome = hns::run_match(*pinned, hns::MatchOptions{}, at_tick);
    ASSERT_TRUE(outcome) << outcome.error;
}

TEST(CompactStream, AWholeMatchDrawsTheGlobalStreamsBoardAtEveryTickInATenthOfTheBytes) {
    rh::Stream contract_stream;
    rh::CompactStream compact_stream;
    Board contract, compact;
    std::size_t contract_bytes = 0, compact_bytes = 0;
    int pictures = 0;
    each_tick([&](const hns::Sim& sim) {
        const auto scene = rh::global_scene(sim);
        const auto a = contract_stream.next(scene);
        const auto b = compact_stream.next(scene, static_cast<std::uint32_t>(sim.tick_count()));
        contract_bytes += a.bytes.size();
        compact_bytes += b.bytes.size();
        apply_contract(contract, a);
        apply_compact(compact, b);
        ASSERT_EQ(compact.last_mark()->tick, static_cast<std::uint32_t>(sim.tick_count()));
        expect_same_board(contract, compact, sim.tick_count());
        if (sim.tick_count() % 200 == 100) {  // the picture itself, now and then
            EXPECT_EQ(contract.composite(1440, 800), compact.composite(1440, 800)) << "tick " << sim.tick_count();
            ++pictures;
        }
    });
    EXPECT_GE(pictures, 4);
    std::printf("certification seed 42: contract %zu bytes, compact %zu bytes (1/%.0f)\n", contract_bytes, compact_bytes,
                static_cast<double>(contract_bytes) / static_cast<double>(compact_bytes));
    EXPECT_LT(compact_bytes * 15, contract_bytes);
}

// As a match feeds a group: one shared stream; a viewer that needs a keyframe gets the group's, after
// the group's diff of the same tick forgot what the scene does not use.
struct Group {
    rh::CompactStream shared;
    // Frames for this tick: the in-step diff (if anyone is in step) and the keyframe (if anyone needs one).
    std::pair<std::optional<rh::Frame>, std::optional<rh::Frame>> frames(const rh::Scene& scene, std::uint32_t tick, bool in_step,
                                                                         bool keyed) {
        std::optional<rh::Frame> diff, key;
        if (in_step) diff = shared.next(scene, tick, keyed);
        if (keyed) {
            if (!in_step) shared = rh::CompactStream{};
            key = shared.keyframe(scene, tick);
        }
        return {std::move(diff), std::move(key)};
    }
};

TEST(CompactStream, ViewersThatJoinLateOrSkipFramesAndAreResyncedDrawTheSameBoard) {
    rh::Stream contract_stream;
    Group group;
    Board contract, first, late, skipper;
    bool late_in = false, skipper_in = true;
    int keyframes_seen = 0;
    each_tick([&](const hns::Sim& sim) {
        const int tick = sim.tick_count();
        const auto scene = rh::global_scene(sim);
        apply_contract(contract, contract_stream.next(scene));
        const bool late_joins = tick == 150, skipper_returns = tick == 420;
        if (tick == 300) skipper_in = false;  // its backlog is dropped: it sees nothing until its keyframe
        const bool keyed = late_joins || skipper_returns;
        auto [diff, key] = group.frames(scene, static_cast<std::uint32_t>(tick), true, keyed);
        apply_compact(first, *diff);
        if (late_in && !late_joins) apply_compact(late, *diff);
        if (skipper_in && !skipper_returns) apply_compact(skipper, *diff);
        if (late_joins) {
            apply_compact(late, *key);
            late_in = true;
            ++keyframes_seen;
        }
        if (skipper_returns) {
            const rh::Frame resync = rh::with_resync(*key);
            apply_compact(skipper, resync);
            EXPECT_EQ(skipper.last_mark()->flags, hc::frame_flag::kKeyframe | hc::frame_flag::kResync);
            skipper_in = true;
            ++keyframes_seen;
        }
        expect_same_board(contract, first, tick);
        if (late_in) expect_same_board(contract, late, tick);
        if (skipper_in) expect_same_board(contract, skipper, tick);
        if (keyed) {  // after a keyframe every viewer of the group holds the same dictionary
            EXPECT_EQ(first.blocks(), group.shared.dictionary_blocks());
            EXPECT_EQ(late.blocks(), group.shared.dictionary_blocks());
        }
    });
    EXPECT_EQ(keyframes_seen, 2);
}

TEST(CompactStream, ASmallDictionaryForgetsAndReusesIdsWithoutChangingThePicture) {
    rh::Stream contract_stream;
    constexpr std::size_t kBlocks = 32, kBytes = 200 * 1024;
    rh::CompactStream compact_stream(kBlocks, kBytes);
    Board contract, compact;
    int forgets = 0;
    std::size_t over = 0;
    each_tick([&](const hns::Sim& sim) {
        const auto scene = rh::global_scene(sim);
        std::set<const hschool::protocol::Bytes*> scene_blocks;  // what the scene itself needs is never forgotten
        for (const auto& item : scene.items)
            if (item.sprite && !item.sprite->always_send) scene_blocks.insert(item.sprite->block.get());
        apply_contract(contract, contract_stream.next(scene));
        const auto frame = compact_stream.next(scene, static_cast<std::uint32_t>(sim.tick_count()));
        const auto decoded = hc::decode(frame.bytes);
        for (const auto& m : *decoded) forgets += std::holds_alternative<hc::ForgetBlock>(m);
        apply_compact(compact, frame);
        over += compact.blocks() > std::max(kBlocks, scene_blocks.size());
        expect_same_board(contract, compact, sim.tick_count());
    });
    EXPECT_GT(forgets, 0);
    EXPECT_EQ(over, 0u);
}

TEST(CompactStream, TheFirstFrameIsAKeyframeAndAStillBoardCostsOnlyItsFrameMark) {
    hns::Sim sim = started_certification();
    rh::CompactStream stream;
    const auto scene = rh::global_scene(sim);
    const auto first = stream.next(scene, 7);
    const auto decoded = hc::decode_checked(first.bytes);
    ASSERT_TRUE(decoded.ok());
    const auto& all = *decoded;
    ASSERT_GE(all.size(), 4u);
    EXPECT_EQ(std::get<hc::FrameMark>(all[0]), (hc::FrameMark{7, hc::frame_flag::kKeyframe}));
    EXPECT_TRUE(std::holds_alternative<sv::ClearObjects>(all[1]));
    EXPECT_EQ(std::get<sv::DefineLayer>(all[2]), (sv::DefineLayer{0, 0, 1}));
    EXPECT_EQ(std::get<sv::SetViewport>(all[3]), (sv::SetViewport{0, 1440, 800}));
    // The bands are blocks too, drawn at 1× and widened: a whole board in a few tens of kilobytes.
    EXPECT_LT(first.bytes.size(), 200u * 1024) << first.bytes.size();
    const auto again = stream.next(scene, 8);
    EXPECT_EQ(hex(again.bytes), "10 08 00 00 00 00");
}

TEST(CompactStream, ALabelChangeOverTheSamePixelsIsARelabel) {
    hns::Sim sim = started_certification();
    rh::CompactStream stream;
    stream.next(rh::global_scene(sim), 1);
    const auto& p = sim.players()[0];
    ASSERT_FALSE(sim.frozen_seeker(0));  // its cone is drawn
    const int aim = p.aimBrads;
    auto scene = rh::global_scene(sim);
    // The scene as if the aim moved by one brad inside the same 4-brad art direction.
    for (auto& item : scene.items)
        if (item.sprite && item.sprite->id == rh::kConeSpriteBase + p.joinOrder)
            item.sprite->label = rh::cone_label(p.joinOrder, (aim + 1) & 255, sim.config().visionConeDeg, sim.config().sightRange);
    const auto decoded = hc::decode_checked(stream.next(scene, 2).bytes);
    ASSERT_TRUE(decoded.ok());
    const auto& all = *decoded;
    int relabels = 0, blocks = 0, uses = 0;
    for (const auto& m : all) {
        relabels += std::holds_alternative<hc::Relabel>(m);
        blocks += std::holds_alternative<hc::DefineBlock>(m);
        uses += std::holds_alternative<hc::UseBlock>(m);
    }
    EXPECT_EQ(relabels, 1);
    EXPECT_EQ(blocks, 0);
    EXPECT_EQ(uses, 0);
}

}  // namespace
