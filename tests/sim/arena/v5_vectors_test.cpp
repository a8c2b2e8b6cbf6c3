// Golden files for the TypeScript client, made by the C++ world and checked against it here:
// tests/vectors/v5_prediction.json (exact f32 avatar positions per step, for the predictor) and
// tests/vectors/v5_stream.json (a Frame stream with the replica after each Frame, for the applier).
// HSCHOOL_WRITE_VECTORS=1 rewrites them; otherwise the files must equal what the world makes now.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "sim/arena/arena_world.hpp"
#include "sim/arena/v5/delta_encoder.hpp"
#include "sim/arena/v5/replica.hpp"

namespace hschool::sim::arena::v5 {
namespace {

namespace p5 = protocol::v5;

// %.9g round-trips every f32 through a binary64 reader (JSON.parse, then Math.fround).
std::string f32(float v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", static_cast<double>(v));
    return text;
}

std::string hex(const protocol::Bytes& bytes) {
    std::string out;
    char byte[4];
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        std::snprintf(byte, sizeof byte, i ? " %02x" : "%02x", bytes[i]);
        out += byte;
    }
    return out;
}

// A fixed mask schedule: a new mask every `hold` steps from a small LCG, so no library decides it.
std::vector<std::uint8_t> masks(std::uint32_t seed, int steps, int hold) {
    std::vector<std::uint8_t> out;
    std::uint32_t state = seed;
    std::uint8_t mask = 0;
    for (int i = 0; i < steps; ++i) {
        if (i % hold == 0) {
            state = state * 1664525u + 1013904223u;
            mask = static_cast<std::uint8_t>((state >> 24) & 0x1F);  // bit 4 is not a button: ignored
        }
        out.push_back(mask);
    }
    return out;
}

struct Scenario {
    const char* name;
    ArenaSettings settings;
    std::vector<std::uint8_t> masks;
};

std::vector<Scenario> scenarios() {
    ArenaSettings crowded;
    crowded.obstacle_count = 40;
    crowded.seed = 7;
    ArenaSettings small;
    small.width = 300;
    small.height = 200;
    small.obstacle_count = 3;
    small.tick_rate = 30;
    small.player_speed = 377.5f;
    return {{"default-world", ArenaSettings{}, masks(1, 600, 9)},
            {"forty-obstacles", crowded, masks(2, 800, 13)},
            {"small-field-walls-30hz", small, masks(3, 400, 7)}};
}

std::string prediction_json() {
    std::ostringstream out;
    out << "{\n  \"version\": 5,\n  \"scenarios\": [\n";
    const auto all = scenarios();
    for (std::size_t n = 0; n < all.size(); ++n) {
        const Scenario& sc = all[n];
        ArenaWorld world(sc.settings);
        const std::uint32_t id = world.apply(JoinCommand{"p"});
        protocol::v1::Snapshot snap;
        world.capture_snapshot(snap);
        out << "    {\n      \"name\": \"" << sc.name << "\",\n";
        const auto& s = sc.settings;
        out << "      \"settings\": {\"width\": " << f32(s.width) << ", \"height\": " << f32(s.height)
            << ", \"playerSpeed\": " << f32(s.player_speed) << ", \"playerRadius\": " << f32(s.player_radius)
            << ", \"tickRate\": " << int{s.tick_rate} << "},\n      \"obstacles\": [";
        bool first = true;
        float x = 0, y = 0;
        for (const auto& e : snap.entities) {
            if (e.kind == protocol::v1::kind::kObstacle) {
                out << (first ? "" : ", ") << "[" << f32(e.x) << ", " << f32(e.y) << ", " << f32(e.radius) << "]";
                first = false;
            } else if (e.id == id) {
                x = e.x, y = e.y;
            }
        }
        out << "],\n      \"start\": [" << f32(x) << ", " << f32(y) << "],\n      \"steps\": [\n";
        for (std::size_t i = 0; i < sc.masks.size(); ++i) {
            world.apply(InputCommand{id, static_cast<std::uint32_t>(i + 1), sc.masks[i]});
            world.step();
            world.capture_snapshot(snap);
            for (const auto& e : snap.entities)
                if (e.id == id) x = e.x, y = e.y;
            out << "        [" << int{sc.masks[i]} << ", " << f32(x) << ", " << f32(y) << "]" << (i + 1 < sc.masks.size() ? ",\n" : "\n");
        }
        out << "      ]\n    }" << (n + 1 < all.size() ? ",\n" : "\n");
    }
    out << "  ]\n}\n";
    return out.str();
}

std::string stream_json() {
    ArenaWorld world(ArenaSettings{});
    std::map<std::uint32_t, std::uint16_t> slot_of;
    std::vector<std::uint32_t> bots;
    std::uint16_t next_slot = 0;
    auto join = [&] {
        const std::uint32_t id = world.apply(JoinCommand{""});
        slot_of[id] = next_slot++;
        return id;
    };
    const std::uint32_t observer = join();
    for (int i = 0; i < 24; ++i) bots.push_back(join());
    DeltaEncoder encoder;
    Replica replica;
    std::shared_ptr<const TickArtifacts> previous;
    std::ostringstream out;
    out << "{\n  \"version\": 5,\n  \"selfSlot\": " << slot_of[observer] << ",\n  \"frames\": [\n";
    std::uint32_t state = 5;
    bool first = true;
    for (int tick = 0; tick < 80; ++tick) {
        for (std::uint32_t id : bots) {
            state = state * 1664525u + 1013904223u;
            if ((state >> 28) == 0) world.apply(InputCommand{id, static_cast<std::uint32_t>(tick + 1), static_cast<std::uint8_t>((state >> 20) & 15)});
        }
        world.apply(InputCommand{observer, static_cast<std::uint32_t>(tick + 1), static_cast<std::uint8_t>(tick < 40 ? 8 : 6)});
        if (tick == 30) {  // a leave and a join in one tick: the slot is reused
            world.apply(LeaveCommand{bots.back()});
            const std::uint16_t freed = slot_of[bots.back()];
            slot_of.erase(bots.back());
            bots.back() = world.apply(JoinCommand{""});
            slot_of[bots.back()] = freed;
        }
        world.step();
        protocol::v1::Snapshot snap;
        world.capture_snapshot(snap);
        std::vector<PlayerInput> players;
        for (const auto& e : snap.entities)
            if (e.kind == protocol::v1::kind::kPlayer) players.push_back({slot_of.at(e.id), e.id, e.x, e.y, e.colour, 0, 0, 0});
        // Built every tick as the server builds them, with deltas against the last tick's: a Frame
        // after a skip is merged, the others are coded from the deltas.
        previous = std::make_shared<const TickArtifacts>(build_artifacts(world.tick(), world.settings(), players, previous.get()));
        if (tick % 7 == 3 || (tick > 50 && tick < 60)) continue;  // skipped ticks coalesce
        const auto frame = encoder.next(previous, slot_of[observer]);
        EXPECT_EQ(replica.apply(frame), std::nullopt);
        out << (first ? "" : ",\n") << "    {\"hex\": \"" << hex(p5::encode(frame)) << "\",\n     \"replica\": [";
        first = false;
        bool first_entry = true;
        for (const auto& v : replica.entries()) {
            out << (first_entry ? "" : ", ") << "[" << v.slot << ", " << v.id << ", " << v.qx << ", " << v.qy << ", " << v.colour << "]";
            first_entry = false;
        }
        out << "]}";
    }
    out << "\n  ]\n}\n";
    return out.str();
}

void check_or_write(const char* file, const std::string& made) {
    const std::string path = std::string(HSCHOOL_SOURCE_DIR) + "/tests/vectors/" + file;
    if (std::getenv("HSCHOOL_WRITE_VECTORS")) {
        std::ofstream(path) << made;
        return;
    }
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), made) << file << " differs from what the world makes: a simulation or encoder change "
                                   "is a protocol change (rewrite with HSCHOOL_WRITE_VECTORS=1 and update the client)";
}

TEST(V5Vectors, ThePredictionFileIsWhatTheWorldSteps) { check_or_write("v5_prediction.json", prediction_json()); }
TEST(V5Vectors, TheStreamFileIsWhatTheEncoderSends) { check_or_write("v5_stream.json", stream_json()); }

}  // namespace
}  // namespace hschool::sim::arena::v5
