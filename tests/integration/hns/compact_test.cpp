// The compact watch stream on the real server (issue 31): asked for with stream=compact on /global
// and /replay (the replay chrome too), it starts with a keyframe and marks every frame with the tick it shows; every
// message passes the strict decoder and a receiver applies them all; the contract stream of the
// same match is untouched; any other stream value is refused before the upgrade.
#include "../../support/sprite_board.hpp"
#include "hns_client.hpp"
#include "protocol/block_pixels.hpp"
#include "protocol/hns_compact.hpp"

namespace hschool::test::hns {
namespace {

namespace hc = protocol::hns_compact;

class HnsCompact : public ServerTest<hns_server_args> {
protected:
    std::string bot_match() { return create_match(server.port(), R"({"variant":"certification","bots":6})"); }
};

hc::FrameMark mark_of(const protocol::Bytes& message) {
    const auto decoded = hc::decode_checked(message);
    EXPECT_TRUE(decoded.ok()) << (decoded.ok() ? "" : sv::describe(decoded.error()));
    if (!decoded.ok() || decoded->empty() || !std::holds_alternative<hc::FrameMark>(decoded->front())) {
        ADD_FAILURE() << "a compact frame must start with its frame mark";
        return {};
    }
    return std::get<hc::FrameMark>(decoded->front());
}

TEST_F(HnsCompact, AWatcherGetsAKeyframeThenFramesMarkedWithTheTicksTheyShow) {
    const std::string id = bot_match();
    ASSERT_FALSE(id.empty());
    auto compact = open_socket(server.port(), "/global?match=" + id + "&stream=compact");
    ASSERT_TRUE(compact);
    // Read first, checked after: a reader that only reads keeps up by construction, however slowly
    // a busy machine under AddressSanitizer decodes and draws (one that fell behind would rightly
    // be resynced, and the test is about one that does not).
    std::vector<protocol::Bytes> messages;
    for (int frames = 0; frames < 72; ++frames) {
        auto message = next_binary(*compact);
        ASSERT_TRUE(message) << "frame " << frames;
        messages.push_back(std::move(*message));
    }
    sprite_board::Board board;
    std::uint32_t last_tick = 0;
    for (std::size_t frames = 0; frames < messages.size(); ++frames) {
        const protocol::Bytes& message = messages[frames];
        const auto mark = mark_of(message);
        if (frames == 0) EXPECT_EQ(mark.flags, hc::frame_flag::kKeyframe);
        else EXPECT_EQ(mark.flags & hc::frame_flag::kResync, 0) << "a reader that keeps up is never resynced";
        EXPECT_GE(mark.tick, last_tick);
        last_tick = mark.tick;
        ASSERT_EQ(board.apply_compact(message), std::nullopt) << "frame " << frames;
    }
    EXPECT_GT(last_tick, 0u);
    EXPECT_GE(board.visible().size(), 20u);  // bands, objects, cogs and cones are on the board
    // The same match on /global without the parameter is the contract's Sprite v1, header first.
    // Opened only now: a socket left unread while the 72 frames above are read (two minutes on a busy
    // machine under the sanitizers) is rightly closed by the write stall.
    auto contract = open_socket(server.port(), "/global?match=" + id);
    ASSERT_TRUE(contract);
    const auto first = next_binary(*contract);
    ASSERT_TRUE(first);
    EXPECT_TRUE(starts_with(*first, kGlobalHeader));
    EXPECT_TRUE(sv::decode_server(*first).ok());
    // The compact bytes are counted apart from the contract's.
    const std::string metrics = http_request(server.port(), "GET", "/metrics").body;
    EXPECT_NE(metrics.find(R"(hschool_hns_frame_bytes_total{stream="global_compact"})"), std::string::npos);
}

TEST_F(HnsCompact, AnotherStreamValueIsRefusedBeforeTheUpgrade) {
    const std::string id = bot_match();
    ASSERT_FALSE(id.empty());
    for (const std::string& target : {"/global?match=" + id + "&stream=gzip", "/admin?match=" + id + "&stream=COMPACT",
                                     "/replay?match=" + id + "&stream=compact2"}) {
        const auto refused = upgrade_request(server.port(), target);
        EXPECT_EQ(refused.status, 400U) << target;
        EXPECT_EQ(refused.body, "unknown stream\n") << target;
    }
    // The contract's own value is the default.
    auto sprite = open_socket(server.port(), "/global?match=" + id + "&stream=sprite");
    ASSERT_TRUE(sprite);
    const auto first = next_binary(*sprite);
    ASSERT_TRUE(first);
    EXPECT_TRUE(starts_with(*first, kGlobalHeader));
}

TEST_F(HnsCompact, AReplayViewerGetsTheChromeWithItsTickAsTheReplayPlays) {
    const std::string id = bot_match();
    ASSERT_FALSE(id.empty());
    ASSERT_EQ(play_out(server.port(), id), std::optional<std::uint16_t>(1000));
    auto viewer = open_socket(server.port(), "/replay?match=" + id + "&stream=compact");
    ASSERT_TRUE(viewer);
    sprite_board::Board board;
    int chromes = 0;
    std::uint32_t last_tick = 0;
    for (int frames = 0; frames < 48; ++frames) {
        const auto message = next_binary(*viewer);
        ASSERT_TRUE(message) << "frame " << frames;
        ASSERT_EQ(board.apply_compact(*message), std::nullopt);
        const auto decoded = hc::decode(*message);
        ASSERT_TRUE(decoded.ok());
        for (const auto& m : *decoded) {
            // The chrome is a 1×1 sprite the contract re-sends every frame: here, when its label changed.
            if (const auto* chrome = std::get_if<sv::DefineSprite>(&m); chrome && chrome->sprite_id == 4090) {
                ++chromes;
                EXPECT_NE(chrome->label.find("{\"t\":"), std::string::npos) << chrome->label;
            }
        }
        last_tick = mark_of(*message).tick;
    }
    EXPECT_GT(chromes, 20) << "the replay's chrome should follow its tick";
    EXPECT_GT(last_tick, 20u);
}

}  // namespace
}  // namespace hschool::test::hns
