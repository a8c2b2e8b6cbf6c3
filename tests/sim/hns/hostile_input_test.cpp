// The parsers at the trust boundaries (config, room, order, replay) take mutated and truncated
// input and answer with a value or an error, never a crash (run under ASan/UBSan too).
#include <gtest/gtest.h>

#include "hns_test_support.hpp"
#include "sim/hns/orders.hpp"
#include "sim/hns/replay.hpp"
#include "sim/hns/verify.hpp"

using namespace hns_test;

namespace {

constexpr int kMutations = 400;

// A fixed xorshift so every run mutates the same way.
struct Mutator {
    std::uint32_t s = 2463534242u;
    std::uint32_t next() {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        return s;
    }
    std::string mutate(std::string text) {
        if (text.empty()) return text;
        switch (next() % 4) {
            case 0: text[next() % text.size()] = static_cast<char>(next()); break;
            case 1: text.resize(next() % text.size()); break;
            case 2: text.insert(next() % text.size(), 1, "{}[],:\"0-e."[next() % 11]); break;
            default: text.erase(next() % text.size(), 1 + next() % 8); break;
        }
        return text;
    }
};

}  // namespace

TEST(HnsHostileInput, ConfigParserSurvivesMutations) {
    const std::string replay = read_file(vector_dir() + "/cert_zero.cowldhns");
    const std::string echo = replay.substr(38, 4208);
    ASSERT_TRUE(hns::apply_config_json(hns::GameConfig{}, echo));
    Mutator m;
    int ok = 0;
    for (int i = 0; i < kMutations; ++i) {
        auto c = hns::apply_config_json(hns::GameConfig{}, m.mutate(echo));
        if (c) {
            ++ok;
            EXPECT_EQ(hns::validate_config(*c), "");
        } else {
            EXPECT_FALSE(c.error.empty());
        }
    }
    EXPECT_LT(ok, kMutations);
}

TEST(HnsHostileInput, RoomParserSurvivesMutations) {
    const std::string room = read_file(hns::rooms_dir() + "/room_long_hall.json");
    Mutator m;
    for (int i = 0; i < kMutations / 4; ++i) {
        auto r = hns::parse_room(m.mutate(room));
        if (!r) {
            EXPECT_FALSE(r.error.empty());
        }
    }
}

TEST(HnsHostileInput, OrderParserSurvivesMutations) {
    hns::OrderContext ctx;
    ctx.objectIds = {"box1", "ramp1"};
    ctx.rampIds = {"ramp1"};
    ctx.anchorIds = {"p1"};
    const std::string order =
        R"({"intent":"push","object":"box1","to":[1.5,"2"],"face":{"x":3,"y":4},"at":"p1","say":"hi","radio":"r","notes":"n"})";
    Mutator m;
    for (int i = 0; i < kMutations; ++i) {
        const std::string text = m.mutate(order);
        auto e = hns::extract_json_object(text);
        if (e) (void)hns::parse_order(*e, ctx);
        (void)hns::parse_order(text, ctx);
    }
}

TEST(HnsHostileInput, ReplayParserAndVerifierSurviveMutations) {
    const std::string replay = read_file(vector_dir() + "/cert_formula.cowldhns");
    Mutator m;
    int verified = 0;
    for (int i = 0; i < 60; ++i) {
        // Mutate only the record area most of the time, so the verifier gets exercised too.
        std::string bytes = replay;
        const std::size_t at = 4246 + m.next() % (bytes.size() - 4246);
        bytes[at] = static_cast<char>(m.next());
        auto d = hns::parse_replay(i % 5 == 0 ? m.mutate(replay) : bytes);
        if (!d) continue;
        const auto r = hns::verify_replay(*d);
        verified += r.ok ? 1 : 0;
    }
    EXPECT_LT(verified, 60);
}
