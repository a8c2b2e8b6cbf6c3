// GameVersion 2 (the reference after its review fixes F1, F6, F7) against the reference's own
// GameVersion 2 numbers (tests/vectors/hns/gv2/, copied from shared/spec/hns-reference-gv2/), and
// GameVersion 1 kept beside it: a replay's header picks the rules it is re-stepped by.
#include <gtest/gtest.h>

#include "hns_test_support.hpp"
#include "sim/hns/match.hpp"
#include "sim/hns/verify.hpp"

using namespace hns_test;

namespace {

std::string gv2(const std::string& name) { return vector_dir() + "/gv2/" + name; }

boost::json::value gv2_json(const std::string& name) { return boost::json::parse(read_file(gv2(name))); }

// A replay's records: everything after its header (magic, format, name, version, start, config).
std::string records_of(const std::string& replay) {
    std::size_t off = hns::kReplayMagicLen + 2;
    for (int field = 0; field < 3; ++field) {
        const std::size_t n = static_cast<unsigned char>(replay[off]) | static_cast<unsigned char>(replay[off + 1]) << 8;
        off += 2 + n + (field == 1 ? 8 : 0);  // the start time follows the version string
    }
    return replay.substr(off);
}

// A held object dropped by F7's rule: at the prep->hunt switch ("release") or when a game ends.
struct Drop {
    int tick;
    int slot;
    std::string object, trigger;
    bool operator==(const Drop&) const = default;
};

// Steps the certification match of `vector` with its recorded masks under `version`, collecting
// every hold that ended on a switch or game-end tick.
std::vector<Drop> formula_drops(const boost::json::value& doc, hns::GameVersion version, int& firstMismatch) {
    hns::Sim sim = make_sim("certification", doc.at("seed").as_int64(), version);
    const auto& hashes = doc.at("hashes").as_array();
    const auto& masks = doc.at("masks").as_array();
    std::vector<hns::Input> prev(6), cur(6);
    std::vector<Drop> drops;
    firstMismatch = 0;
    for (std::size_t i = 0; i < hashes.size(); ++i) {
        if (i == 0) join_six(sim);
        for (int c = 0; c < 6; ++c) cur[c].mask = static_cast<std::uint8_t>(masks[i].as_array()[c].as_int64());
        std::vector<int> held;
        for (const auto& p : sim.players()) held.push_back(p.holding);
        const bool wasPrep = sim.phase() == hns::GamePhase::Playing && sim.match_phase() == hns::MatchPhase::Prep;
        const bool wasPlaying = sim.phase() == hns::GamePhase::Playing;
        sim.step(cur, prev);
        prev = cur;
        const bool released = wasPrep && sim.match_phase() == hns::MatchPhase::Hunt;
        const bool ended = wasPlaying && sim.phase() == hns::GamePhase::GameOver;
        for (std::size_t s = 0; s < held.size(); ++s) {
            if (held[s] < 0 || sim.players()[s].holding >= 0 || !(released || ended)) continue;
            // Only a drop with C still held is F7's: a released button drops under either version.
            if ((cur[s].mask & hns::kBtnC) == 0) continue;
            drops.push_back({sim.tick_count(), static_cast<int>(s), sim.objects()[held[s]].id, released ? "release" : "finishGame"});
        }
        if (sim.hash() != hex(hashes[i]) && firstMismatch == 0) firstMismatch = static_cast<int>(i) + 1;
    }
    return drops;
}

}  // namespace

TEST(HnsGameVersion2, EverySharedReplayVerifiesAndReDerivesItsResults) {
    for (const char* name : {"cert_formula", "cert_burrow_scatter", "warren_s42_zero"}) {
        SCOPED_TRACE(name);
        auto data = hns::parse_replay(read_file(gv2(std::string(name) + ".cowldhns")));
        ASSERT_TRUE(data) << data.error;
        EXPECT_EQ(data->gameVersion, "2");
        EXPECT_EQ(data->version, hns::GameVersion::V2);
        const auto report = hns::verify_replay(*data);
        EXPECT_TRUE(report.ok) << report.message();
        const auto doc = gv2_json(std::string(name) + ".json");
        EXPECT_EQ(report.checked, static_cast<int>(doc.at("hashes").as_array().size()));
        EXPECT_EQ(boost::json::parse(report.results), doc.at("results"));
    }
}

TEST(HnsGameVersion2, AGameVersion2ReplayReSteppedByVersion1RulesFailsWhereF7FirstActs) {
    // The header is what picks the rules: the same records under GameVersion 1 part at tick 181,
    // the first tick the README names as differing (slot 2 holding ramp1 across the release).
    std::string bytes = read_file(gv2("cert_formula.cowldhns"));
    auto data = hns::parse_replay(bytes);
    ASSERT_TRUE(data);
    data->version = hns::GameVersion::V1;
    const auto report = hns::verify_replay(*data);
    EXPECT_FALSE(report.ok);
    EXPECT_EQ(report.mismatchTick, 181) << report.message();
}

TEST(HnsGameVersion2, BurrowAgainstScatterWritesTheReferencesHashChainAndRecords) {
    auto config = hns::variant_config("certification");
    ASSERT_TRUE(config);
    EXPECT_EQ(config->gameVersion, hns::GameVersion::V2);  // the default
    auto pinned = hns::resolve_room_spec(*config);
    ASSERT_TRUE(pinned) << pinned.error;
    hns::MatchOptions opt;
    opt.seats = {hns::Baseline::Burrow, hns::Baseline::Scatter, hns::Baseline::Burrow,
                 hns::Baseline::Scatter, hns::Baseline::Burrow, hns::Baseline::Scatter};
    auto out = hns::run_match(*pinned, opt);
    ASSERT_TRUE(out) << out.error;
    const auto doc = gv2_json("cert_burrow_scatter.json");
    auto data = hns::parse_replay(out->replay);
    ASSERT_TRUE(data);
    EXPECT_EQ(data->gameVersion, "2");
    const auto& want = doc.at("hashes").as_array();
    ASSERT_EQ(data->hashes.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        ASSERT_EQ(data->hashes[i].tick, i + 1);
        ASSERT_EQ(data->hashes[i].hash, hex(want[i])) << "tick " << i + 1;
    }
    const auto results = boost::json::parse(out->results);
    EXPECT_EQ(results.at("scores"), doc.at("results").at("scores"));
    EXPECT_EQ(results.at("gameMargins"), doc.at("results").at("gameMargins"));
    EXPECT_EQ(results.at("seatSeenTicks"), doc.at("results").at("seatSeenTicks"));
    // Every join, mask, directive, shout, hash and the result record, byte for byte (the header's
    // config echo differs only in the player list the reference's certification driver names).
    EXPECT_EQ(records_of(out->replay), records_of(read_file(gv2("cert_burrow_scatter.cowldhns"))));
}

TEST(HnsGameVersion2, F7DropsWhatIsHeldAtTheReleaseAndAtTheEndOfAGame) {
    const auto doc = gv2_json("cert_formula.json");
    int mismatch = -1;
    const std::vector<Drop> drops = formula_drops(doc, hns::GameVersion::V2, mismatch);
    EXPECT_EQ(mismatch, 0) << "first mismatch at tick " << mismatch;
    std::vector<Drop> want;
    for (const auto& d : doc.at("f7Drops").as_array())
        want.push_back({static_cast<int>(d.at("tick").as_int64()), static_cast<int>(d.at("slot").as_int64()),
                        std::string(d.at("object").as_string()), std::string(d.at("trigger").as_string())});
    ASSERT_FALSE(want.empty());
    EXPECT_EQ(drops, want);
    // Under GameVersion 1 the same masks keep holding through both moments, and the chain parts
    // from the reference's GameVersion 2 chain at the first of them.
    const std::vector<Drop> v1 = formula_drops(doc, hns::GameVersion::V1, mismatch);
    EXPECT_TRUE(v1.empty());
    EXPECT_EQ(mismatch, 181);
}

TEST(HnsGameVersion2, ConfigChoosesTheVersionAndTheEchoNeverCarriesIt) {
    auto v1 = hns::apply_config_json(hns::GameConfig{}, R"({"gameVersion":"1"})");
    ASSERT_TRUE(v1) << v1.error;
    EXPECT_EQ(v1->gameVersion, hns::GameVersion::V1);
    EXPECT_EQ(hns::GameConfig{}.gameVersion, hns::GameVersion::V2);
    for (const char* bad : {R"({"gameVersion":"3"})", R"({"gameVersion":2})", R"({"gameVersion":""})"}) {
        auto c = hns::apply_config_json(hns::GameConfig{}, bad);
        ASSERT_FALSE(c) << bad;
        EXPECT_NE(c.error.find("gameVersion"), std::string::npos) << c.error;
    }
    EXPECT_EQ(hns::config_to_json(*v1).find("gameVersion"), std::string::npos);
    EXPECT_EQ(hns::config_to_json(*v1), hns::config_to_json(hns::GameConfig{}));
}

TEST(HnsGameVersion2, AGameVersion1MatchWritesAVersion1ReplayThatVerifiesByItsRules) {
    auto config = hns::variant_config("certification");
    ASSERT_TRUE(config);
    config->gameVersion = hns::GameVersion::V1;
    auto pinned = hns::resolve_room_spec(*config);
    ASSERT_TRUE(pinned);
    auto out = hns::run_match(*pinned, hns::MatchOptions{});
    ASSERT_TRUE(out);
    // GameVersion 1's six burrow seats, pinned since before GameVersion 2 existed.
    EXPECT_EQ(out->finalHash, 0x2bf4c5d51a03475aULL);
    auto data = hns::parse_replay(out->replay);
    ASSERT_TRUE(data);
    EXPECT_EQ(data->gameVersion, "1");
    const auto report = hns::verify_replay(*data);
    EXPECT_TRUE(report.ok) << report.message();
    // The same replay re-stepped by GameVersion 2's rules does not hold: the version matters.
    data->version = hns::GameVersion::V2;
    EXPECT_FALSE(hns::verify_replay(*data).ok);
}

TEST(HnsGameVersion2, AReplayOfAnUnknownVersionIsRefusedByName) {
    hns::ReplayWriter w("{}", 0, hns::GameVersion::V2);
    std::string bytes = w.bytes();
    bytes[27] = '3';  // the version string's one byte
    auto data = hns::parse_replay(bytes);
    ASSERT_FALSE(data);
    EXPECT_NE(data.error.find("game version"), std::string::npos) << data.error;
}
