// Hide-and-seek endpoints against the real server (spec §6 items 1–8, 12): routes and their texts,
// refusals before the upgrade, the first bytes of each stream, slot-sequential admission, Sprites
// Off, kicks, the reward stream, and what bad input gets.
#include "hns_client.hpp"

namespace hschool::test::hns {
namespace {

class HnsEndpoints : public ServerTest<hns_server_args> {};

TEST_F(HnsEndpoints, HealthzAndControlsAnswerWithTheReferenceTexts) {
    auto health = http_request(server.port(), "GET", "/healthz");
    EXPECT_EQ(health.status, 200U);
    EXPECT_EQ(health.body, "healthy");
    EXPECT_NE(health.headers.at("content-type").find("text/plain"), std::string::npos);

    auto restart = http_request(server.port(), "POST", "/control/restart");
    EXPECT_EQ(restart.status, 202U);
    EXPECT_EQ(restart.body, "restart queued\n");
    auto kick = http_request(server.port(), "POST", "/control/kick");
    EXPECT_EQ(kick.status, 400U);
    EXPECT_EQ(kick.body, "missing identity\n");
    auto kick_someone = http_request(server.port(), "POST", "/control/kick?identity=nobody");
    EXPECT_EQ(kick_someone.status, 202U);
    EXPECT_EQ(kick_someone.body, "kick queued\n");
    // CORS only for pages that may write here (our own host, --allow-origin); drop-in keeps "*".
    auto options = http_request(server.port(), "OPTIONS", "/control/restart", "", {{"Origin", "http://127.0.0.1"}});
    EXPECT_EQ(options.status, 204U);
    EXPECT_EQ(options.headers["access-control-allow-origin"], "http://127.0.0.1");
    auto foreign = http_request(server.port(), "OPTIONS", "/control/restart", "", {{"Origin", "http://evil.example"}});
    EXPECT_EQ(foreign.status, 204U);
    EXPECT_EQ(foreign.headers.count("access-control-allow-origin"), 0U);
    auto unknown_match = http_request(server.port(), "POST", "/control/restart?match=m999");
    EXPECT_EQ(unknown_match.status, 404U);
}

TEST_F(HnsEndpoints, ViewersWithCredentialsAreRefusedBeforeTheUpgrade) {
    for (const char* target : {"/global?slot=0", "/admin?name=x", "/global?token=t"}) {
        auto refused = upgrade_request(server.port(), target);
        EXPECT_EQ(refused.status, 403U) << target;
        EXPECT_EQ(refused.body, "Viewer websocket cannot include player name, slot, or token.\n") << target;
    }
    EXPECT_EQ(upgrade_request(server.port(), "/global?match=nope").status, 404U);
}

TEST_F(HnsEndpoints, BadSlotAndWrongTokenAreRefusedWithTheReferenceReasons) {
    auto bad_slot = upgrade_request(server.port(), "/player?slot=x");
    EXPECT_EQ(bad_slot.status, 403U);
    EXPECT_EQ(bad_slot.body, "Player slot must be between 0 and 31.\n");

    const std::string id = create_match(server.port(), R"({"variant":"certification","config":{"tokens":["a","b","c","d","e","f"]}})");
    ASSERT_FALSE(id.empty());
    auto wrong = upgrade_request(server.port(), "/player?match=" + id + "&slot=0&token=bad");
    EXPECT_EQ(wrong.status, 403U);
    EXPECT_EQ(wrong.body, "Player token does not match configured slot 0.\n");
    auto right = open_socket(server.port(), "/player?match=" + id + "&slot=0&token=a");
    EXPECT_TRUE(right);
}

TEST_F(HnsEndpoints, PlayerStreamStartsWithTheHeaderThenItsOwnCogThenOneMessagePerTick) {
    const std::string id = create_match(server.port(), R"({"variant":"certification","bots":5})");
    ASSERT_FALSE(id.empty());
    auto seat = open_socket(server.port(), "/player?match=" + id + "&slot=0&name=alice");
    ASSERT_TRUE(seat);
    auto first = next_binary(*seat);
    ASSERT_TRUE(first);
    EXPECT_TRUE(starts_with(*first, kPlayerHeader));
    // Admitted in the same tick: the own cog's sprite (hider, aim 0 → sprite 100) and object 1000.
    const auto messages = decode(*first);
    const auto sprites = all_of<sv::DefineSprite>(messages);
    ASSERT_FALSE(sprites.empty());
    EXPECT_EQ(sprites[0].sprite_id, 100);
    EXPECT_EQ(sprites[0].width, 72);
    EXPECT_EQ(sprites[0].label.rfind("cog HIDER own aim ", 0), 0U) << sprites[0].label;
    const auto cog = object_of(messages, 1000);
    ASSERT_TRUE(cog);
    EXPECT_EQ(cog->sprite_id, 100);
    EXPECT_EQ(cog->z, cog->y + 36);  // z = the cog's centre y
    // Every later tick is exactly one binary message (empty when nothing changed).
    for (int i = 0; i < 30; ++i) ASSERT_TRUE(next_binary(*seat)) << i;
}

TEST_F(HnsEndpoints, AdmissionIsSlotSequential) {
    const std::string id = create_match(server.port(), R"({"variant":"certification"})");
    ASSERT_FALSE(id.empty());
    auto slot3 = open_socket(server.port(), "/player?match=" + id + "&slot=3&name=d");
    ASSERT_TRUE(slot3);
    auto header = next_binary(*slot3);
    ASSERT_TRUE(header);
    EXPECT_TRUE(starts_with(*header, kPlayerHeader));
    EXPECT_FALSE(object_of(decode(*header), 1003));
    for (int i = 0; i < 10; ++i) {  // not seated: an empty message per tick
        auto empty = next_binary(*slot3);
        ASSERT_TRUE(empty);
        EXPECT_TRUE(empty->empty()) << i;
    }
    std::vector<std::unique_ptr<WsClient>> earlier;
    for (int s = 0; s < 3; ++s) {
        earlier.push_back(open_socket(server.port(), "/player?match=" + id + "&slot=" + std::to_string(s) + "&name=p" + std::to_string(s)));
        ASSERT_TRUE(earlier.back());
    }
    bool seated = false;
    for (int i = 0; i < 100 && !seated; ++i) {
        auto message = next_binary(*slot3);
        ASSERT_TRUE(message);
        seated = object_of(decode(*message), 1003).has_value();
    }
    EXPECT_TRUE(seated);
    const auto seats = match_json(server.port(), id).at("seats").as_array();
    EXPECT_EQ(seats[3].as_object().at("identity").as_string(), "d");
    EXPECT_EQ(seats[0].as_object().at("identity").as_string(), "p0");
}

TEST_F(HnsEndpoints, GlobalStreamStartsWithTheHeaderAndTheMapBands) {
    const std::string id = create_match(server.port(), R"({"variant":"certification","bots":6})");
    ASSERT_FALSE(id.empty());
    auto global = open_socket(server.port(), "/global?match=" + id);
    ASSERT_TRUE(global);
    auto first = next_binary(*global);
    ASSERT_TRUE(first);
    EXPECT_TRUE(starts_with(*first, kGlobalHeader));
    const auto messages = decode(*first);
    for (int b = 0; b < 9; ++b) {
        const auto band = object_of(messages, static_cast<std::uint16_t>(40 + b));
        ASSERT_TRUE(band) << b;
        EXPECT_EQ(band->y, 96 * b);
        EXPECT_EQ(band->z, -32768);
        EXPECT_EQ(band->sprite_id, 30 + b);
    }
    const auto sprites = all_of<sv::DefineSprite>(messages);
    ASSERT_FALSE(sprites.empty());
    EXPECT_EQ(sprites[0].width, 1440);
    EXPECT_EQ(sprites[0].label, "map band 0");
    // The deal's first object follows in the same tick (the bands may fill the first chunk, §1.4).
    bool object = object_of(messages, 2200).has_value();
    for (int i = 0; i < 3 && !object; ++i) {
        auto more = next_binary(*global);
        ASSERT_TRUE(more);
        object = object_of(decode(*more), 2200).has_value();
    }
    EXPECT_TRUE(object);
}

TEST_F(HnsEndpoints, SpritesOffStripsPixelsButKeepsLabels) {
    const std::string id = create_match(server.port(), R"({"variant":"certification","bots":6})");
    ASSERT_FALSE(id.empty());
    auto global = open_socket(server.port(), "/global?match=" + id);
    ASSERT_TRUE(global);
    ASSERT_TRUE(global->send({sv::id::kSpritesOff}));
    // Frames already on their way when the 0x87 is read still carry pixels (how many depends on
    // the machine's pace): the first stripped definition marks the switch, a frame being drawn
    // whole with one setting, and every definition after it is stripped too.
    constexpr int kFramesToSwitch = 24 * 60;  // a minute of frames at most before the server reads it
    constexpr int kFramesAfter = 120;
    bool switched = false;
    int after = 0, stripped = 0;
    for (int i = 0; i < kFramesToSwitch + kFramesAfter && after < kFramesAfter; ++i) {
        auto message = next_binary(*global);
        ASSERT_TRUE(message);
        for (const auto& sprite : all_of<sv::DefineSprite>(decode(*message))) {
            switched = switched || sprite.pixels.empty();
            if (!switched) continue;
            EXPECT_TRUE(sprite.pixels.empty()) << sprite.label;
            EXPECT_FALSE(sprite.label.empty());
            ++stripped;
        }
        if (switched) ++after;
    }
    EXPECT_TRUE(switched) << "no stripped definition in " << kFramesToSwitch << " frames";
    EXPECT_EQ(after, kFramesAfter);
    EXPECT_GT(stripped, 0);  // cones and cogs are redefined as aims change
}

TEST_F(HnsEndpoints, AKickedPlayerIsClosedAndCannotComeBack) {
    const std::string id = create_match(server.port(), R"({"variant":"certification"})");
    ASSERT_FALSE(id.empty());
    auto seat = open_socket(server.port(), "/player?match=" + id + "&name=mallory");
    ASSERT_TRUE(seat);
    ASSERT_TRUE(next_binary(*seat));
    auto kicked = http_request(server.port(), "POST", "/control/kick?match=" + id + "&identity=mallory");
    EXPECT_EQ(kicked.status, 202U);
    auto closed = seat->read_until_closed();
    ASSERT_TRUE(closed);
    EXPECT_EQ(closed->code, 1008);
    auto again = upgrade_request(server.port(), "/player?match=" + id + "&name=mallory");
    EXPECT_EQ(again.status, 409U);
    EXPECT_EQ(again.body, "player was kicked\n");
}

TEST_F(HnsEndpoints, RewardStreamSendsSixLinesPerPlayerEachTick) {
    const std::string id = create_match(server.port(), R"({"variant":"certification","bots":6})");
    ASSERT_FALSE(id.empty());
    auto reward = open_socket(server.port(), "/reward?match=" + id);
    ASSERT_TRUE(reward);
    std::string text;
    for (int i = 0; i < 10 && text.empty(); ++i) {
        auto event = reward->read();
        auto* frame = std::get_if<Frame>(&event);
        ASSERT_TRUE(frame);
        EXPECT_FALSE(frame->binary);
        text.assign(frame->data.begin(), frame->data.end());
    }
    for (const char* line : {"reward Cog1 ", "seen Cog1 ", "sealed Cog1 ", "locks Cog1 ", "grabs Cog1 ", "vaults Cog6 "})
        EXPECT_NE(text.find(line), std::string::npos) << line << " in\n" << text;
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 36);
}

// The value of one Prometheus series in the /metrics text, or −1.
double metric(const std::string& text, const std::string& series) {
    const auto at = text.find("\n" + series + " ");
    return at == std::string::npos ? -1 : std::stod(text.substr(at + series.size() + 2));
}

TEST_F(HnsEndpoints, MetricsCountMatchesSeatsTicksAndStreamBytes) {
    const std::string id = create_match(server.port(), R"({"variant":"certification","bots":6})");
    ASSERT_FALSE(id.empty());
    auto global = open_socket(server.port(), "/global?match=" + id);
    ASSERT_TRUE(global);
    for (int i = 0; i < 5; ++i) ASSERT_TRUE(next_binary(*global));
    const std::string text = http_request(server.port(), "GET", "/metrics").body;
    EXPECT_EQ(metric(text, R"(hschool_hns_matches{phase="playing"})"), 1) << text;
    EXPECT_EQ(metric(text, R"(hschool_hns_matches{phase="lobby"})"), 1);  // the default match
    EXPECT_EQ(metric(text, R"(hschool_hns_seats{kind="scripted"})"), 6);
    EXPECT_GT(metric(text, "hschool_hns_ticks_total"), 4);
    EXPECT_GT(metric(text, R"(hschool_hns_frame_bytes_total{stream="global"})"), 100000);  // the bands
    EXPECT_EQ(metric(text, R"(hschool_connections{version="sprite"})"), 1);
}

TEST_F(HnsEndpoints, BadInputClosesWithACodeAndAReason) {
    const std::string id = create_match(server.port(), R"({"variant":"certification"})");
    ASSERT_FALSE(id.empty());
    {
        auto seat = open_socket(server.port(), "/player?match=" + id);
        ASSERT_TRUE(seat);
        ASSERT_TRUE(seat->send({0x7F, 0x01, 0x02}));  // an unknown message type
        auto closed = seat->read_until_closed();
        ASSERT_TRUE(closed);
        EXPECT_EQ(closed->code, 1007);
        EXPECT_FALSE(closed->reason.empty());
    }
    {
        auto seat = open_socket(server.port(), "/player?match=" + id);
        ASSERT_TRUE(seat);
        ASSERT_TRUE(seat->send(text_message(std::string(5000, 'a'))));  // over 4 KiB of text
        auto closed = seat->read_until_closed();
        ASSERT_TRUE(closed);
        EXPECT_EQ(closed->code, 1009);
    }
    {
        auto viewer = open_socket(server.port(), "/global?match=" + id);
        ASSERT_TRUE(viewer);
        ASSERT_TRUE(viewer->send_text("hello"));  // Sprite v1 is binary
        auto closed = viewer->read_until_closed();
        ASSERT_TRUE(closed);
        EXPECT_EQ(closed->code, 1007);
    }
    {
        auto seat = open_socket(server.port(), "/player?match=" + id);
        ASSERT_TRUE(seat);
        // Three 20 KiB debug messages back to back: at most one frame boundary falls between them,
        // so two share a tick, over its 32 KiB.
        const auto debug = sv::encode(sv::ClientMessage{sv::DebugSprites{protocol::Bytes(20 * 1024, 0)}});
        for (int i = 0; i < 3; ++i) ASSERT_TRUE(seat->send(debug));
        auto closed = seat->read_until_closed();
        ASSERT_TRUE(closed);
        EXPECT_EQ(closed->code, 1008);
    }
    // The match is unharmed.
    auto viewer = open_socket(server.port(), "/global?match=" + id);
    ASSERT_TRUE(viewer);
    EXPECT_TRUE(next_binary(*viewer));
}

}  // namespace
}  // namespace hschool::test::hns
