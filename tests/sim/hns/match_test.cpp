// Whole certification matches driven by the reference's recorded masks: every tick's hash must
// match (vectors/cert_zero.json, cert_formula.json, cert_zero_join5.json), and the results too.
#include <gtest/gtest.h>

#include "hns_test_support.hpp"

using namespace hns_test;

namespace {

struct MatchRun {
    int firstMismatch = 0;  // 0 when every hash matched
    int ticks = 0;
    std::string results;
};

MatchRun run_vector(const std::string& file) {
    const auto doc = vector_json(file);
    hns::Sim sim = make_sim(std::string(doc.at("variant").as_string()), doc.at("seed").as_int64());
    const int joinBefore = static_cast<int>(doc.at("joinBeforeStep").as_int64());
    const auto& hashes = doc.at("hashes").as_array();
    const auto* masks = doc.as_object().if_contains("masks");
    std::vector<hns::Input> prev(6), cur(6);
    MatchRun run;
    for (std::size_t i = 0; i < hashes.size(); ++i) {
        if (static_cast<int>(i) + 1 == joinBefore) join_six(sim);
        for (int c = 0; c < 6; ++c)
            cur[c].mask = masks != nullptr ? static_cast<std::uint8_t>(masks->as_array()[i].as_array()[c].as_int64()) : 0;
        sim.step(cur, prev);
        prev = cur;
        ++run.ticks;
        if (sim.hash() != hex(hashes[i]) && run.firstMismatch == 0) run.firstMismatch = static_cast<int>(i) + 1;
    }
    EXPECT_TRUE(sim.finished()) << file;
    EXPECT_EQ(sim.tick_count(), doc.at("finalTick").as_int64());
    run.results = sim.results_json();
    return run;
}

void expect_results(const std::string& file, const std::string& got) {
    const auto doc = vector_json(file);
    EXPECT_EQ(boost::json::parse(got), doc.at("results")) << got;
}

}  // namespace

TEST(HnsMatch, CertZeroEveryHashMatches) {
    const MatchRun run = run_vector("cert_zero.json");
    EXPECT_EQ(run.ticks, 949);
    EXPECT_EQ(run.firstMismatch, 0) << "first mismatch at tick " << run.firstMismatch;
    expect_results("cert_zero.json", run.results);
}

TEST(HnsMatch, CertFormulaEveryHashMatches) {
    const MatchRun run = run_vector("cert_formula.json");
    EXPECT_EQ(run.ticks, 949);
    EXPECT_EQ(run.firstMismatch, 0) << "first mismatch at tick " << run.firstMismatch;
    expect_results("cert_formula.json", run.results);
}

TEST(HnsMatch, CertZeroJoinFiveEveryHashMatches) {
    const MatchRun run = run_vector("cert_zero_join5.json");
    EXPECT_EQ(run.firstMismatch, 0) << "first mismatch at tick " << run.firstMismatch;
    expect_results("cert_zero_join5.json", run.results);
}

TEST(HnsMatch, TimelineAndScoringInvariants) {
    hns::Sim sim = make_sim("certification", 42);
    join_six(sim);
    std::vector<hns::Input> zero(6);
    while (!sim.finished()) sim.step(zero, zero);
    EXPECT_EQ(sim.game_start_ticks(), (std::vector<int>{1, 475}));
    EXPECT_EQ(sim.tick_count(), 949);
    const auto r = boost::json::parse(sim.results_json()).as_object();
    for (std::size_t g = 0; g < 2; ++g) {
        EXPECT_EQ(r.at("huntTicksPlayed").as_array()[g].as_int64(), 271);
        EXPECT_EQ(r.at("hiddenTicks").as_array()[g].as_int64() + r.at("seenTicks").as_array()[g].as_int64(), 271);
    }
    double sum = 0;
    for (const auto& s : r.at("scores").as_array()) {
        sum += s.as_double();
        EXPECT_GE(s.as_double(), -1.0);
        EXPECT_LE(s.as_double(), 1.0);
    }
    EXPECT_DOUBLE_EQ(sum, 0.0);
    EXPECT_EQ(r.size(), 29u);  // the closed key set
}

TEST(HnsMatch, DefaultClockPlays721HuntTicks) {
    // The reference scores the release tick through maxTicks inclusive: 721, not 720.
    hns::Sim sim = make_sim("warren", 42);
    join_six(sim);
    std::vector<hns::Input> zero(6);
    while (!sim.finished()) sim.step(zero, zero);
    const auto r = boost::json::parse(sim.results_json()).as_object();
    EXPECT_EQ(r.at("huntTicksPlayed"), boost::json::parse("[721,721]"));
}

TEST(HnsMatch, WallClockStopPadsTheGamesAndEndsTheEpisode) {
    hns::Sim sim = make_sim("certification", 42);
    join_six(sim);
    std::vector<hns::Input> zero(6);
    for (int i = 0; i < 300; ++i) sim.step(zero, zero);  // into game 1's hunt
    sim.apply_control_record(R"({"k":"stop","tick":300,"endRule":"wall_clock"})");
    sim.step(zero, zero);
    EXPECT_TRUE(sim.finished());
    const auto r = boost::json::parse(sim.results_json()).as_object();
    EXPECT_EQ(r.at("reason").as_string(), "deadline");
    EXPECT_EQ(r.at("endRule").as_string(), "wall_clock");
    EXPECT_EQ(r.at("games").as_int64(), 2);
    EXPECT_EQ(r.at("gameMargins").as_array()[1].as_int64(), 0);
    EXPECT_EQ(r.at("huntTicksPlayed").as_array()[0].as_int64(), 300 - 180);  // gameTicks 180..299
}

TEST(HnsMatch, FaultStopKeepsAShortDetail) {
    hns::Sim sim = make_sim("certification", 42);
    join_six(sim);
    sim.apply_control_record(R"({"k":"stop","tick":0,"endRule":"sim_fault","detail":")" + std::string(300, 'x') + "\"}");
    const auto r = boost::json::parse(sim.results_json()).as_object();
    EXPECT_EQ(r.at("reason").as_string(), "fault");
    EXPECT_EQ(r.at("stopDetail").as_string().size(), 200u);
    sim.apply_control_record("{not json");
    sim.apply_control_record(R"({"k":"result"})");
}
