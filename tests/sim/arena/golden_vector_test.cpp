#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "arena_test_support.hpp"

namespace hschool::sim::arena {
namespace {

namespace json = boost::json;
using namespace testing;

constexpr const char* kVectorPath = HSCHOOL_SOURCE_DIR "/tests/vectors/v1_arena_world.json";

json::value load_vector() {
    std::ifstream file(kVectorPath);
    std::stringstream text;
    text << file.rdbuf();
    return json::parse(text.str());
}

std::string to_hex(const protocol::Bytes& bytes) {
    std::string out;
    char byte[4];
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        std::snprintf(byte, sizeof byte, "%02x", bytes[i]);
        if (i) out += ' ';
        out += byte;
    }
    return out;
}

protocol::Bytes from_hex(const std::string& hex) {
    protocol::Bytes out;
    std::istringstream in(hex);
    std::string token;
    while (in >> token) out.push_back(static_cast<std::uint8_t>(std::stoul(token, nullptr, 16)));
    return out;
}

float number(const json::value& v) { return static_cast<float>(v.to_number<double>()); }

ArenaSettings settings_from(const json::object& o) {
    ArenaSettings s;
    s.width = number(o.at("width"));
    s.height = number(o.at("height"));
    s.player_speed = number(o.at("player_speed"));
    s.player_radius = number(o.at("player_radius"));
    s.obstacle_count = o.at("obstacle_count").to_number<int>();
    s.seed = o.at("seed").to_number<std::uint64_t>();
    s.tick_rate = o.at("tick_rate").to_number<std::uint8_t>();
    s.obstacle_min_radius = number(o.at("obstacle_min_radius"));
    s.obstacle_max_radius = number(o.at("obstacle_max_radius"));
    return s;
}

ArenaCommand command_from(const json::object& o) {
    if (const auto* join = o.if_contains("join")) return JoinCommand{std::string(join->as_string())};
    const auto& input = o.at("input").as_object();
    return InputCommand{input.at("player_id").to_number<std::uint32_t>(),
                        input.at("sequence").to_number<std::uint32_t>(),
                        input.at("buttons").to_number<std::uint8_t>()};
}

protocol::v1::Snapshot run_vector(const json::object& vector) {
    ArenaWorld world(settings_from(vector.at("settings").as_object()));
    const auto steps = vector.at("steps").to_number<std::uint32_t>();
    const auto& script = vector.at("script").as_array();
    for (std::uint32_t tick = 0; tick < steps; ++tick) {
        for (const auto& entry : script)
            if (entry.at("before_tick").to_number<std::uint32_t>() == tick) world.apply(command_from(entry.as_object()));
        world.step();
    }
    protocol::v1::Snapshot snapshot;
    world.capture_snapshot(snapshot);
    return snapshot;
}

TEST(ArenaGoldenVector, PlayersAreWhereTheRulesPutThem) {
    const auto vector = load_vector().as_object();
    const auto snapshot = run_vector(vector);
    const auto& settings = vector.at("settings").as_object();
    const auto& players = vector.at("expected_players").as_array();
    const auto obstacles = static_cast<std::size_t>(settings.at("obstacle_count").to_number<int>());
    ASSERT_EQ(snapshot.entities.size(), obstacles + players.size());
    EXPECT_EQ(snapshot.tick, vector.at("steps").to_number<std::uint32_t>());
    for (std::size_t i = 0; i < players.size(); ++i) {
        const auto& want = players[i].as_object();
        const auto& got = snapshot.entities[obstacles + i];
        EXPECT_EQ(got.id, want.at("id").to_number<std::uint32_t>());
        EXPECT_EQ(got.kind, protocol::v1::kind::kPlayer);
        EXPECT_NEAR(got.x, number(want.at("x")), kTolerance);
        EXPECT_NEAR(got.y, number(want.at("y")), kTolerance);
        EXPECT_EQ(got.radius, number(want.at("radius")));
        EXPECT_EQ(got.colour, want.at("colour").to_number<std::uint32_t>());
    }
}

TEST(ArenaGoldenVector, EncodedSnapshotMatchesTheExpectedBytes) {
    const auto vector = load_vector().as_object();
    const auto encoded = protocol::v1::encode(run_vector(vector));
    EXPECT_EQ(to_hex(encoded), std::string(vector.at("hex").as_string()));
}

TEST(ArenaGoldenVector, ExpectedBytesDecodeToTheHandComputedPlayers) {
    // Independent of ArenaWorld: read the golden bytes with the protocol decoder alone.
    const auto vector = load_vector().as_object();
    const auto decoded = protocol::v1::decode_server(from_hex(std::string(vector.at("hex").as_string())));
    ASSERT_TRUE(decoded.ok());
    const auto& snapshot = std::get<protocol::v1::Snapshot>(decoded.value());
    const auto& players = vector.at("expected_players").as_array();
    ASSERT_GE(snapshot.entities.size(), players.size());
    const std::size_t first_player = snapshot.entities.size() - players.size();
    for (std::size_t i = 0; i < players.size(); ++i) {
        const auto& want = players[i].as_object();
        const auto& got = snapshot.entities[first_player + i];
        EXPECT_EQ(got.id, want.at("id").to_number<std::uint32_t>());
        EXPECT_NEAR(got.x, number(want.at("x")), kTolerance);
        EXPECT_NEAR(got.y, number(want.at("y")), kTolerance);
    }
    for (std::size_t i = 0; i < first_player; ++i) EXPECT_EQ(snapshot.entities[i].kind, protocol::v1::kind::kObstacle);
}

}  // namespace
}  // namespace hschool::sim::arena
