// The seat view against the reference's own: every decision of both training-bridge transcripts
// (tests/vectors/hns/gv2/bridge_seed_{0,1}.jsonl, the reference's numeric_bridge.nim driven over
// stdin) replayed through BridgeEpisode, each view equal to the reference's semantic_view byte for
// byte (its messages[0].content is the same view as text), the seats asked in the same order, and
// the episode's final scores equal to the transcript's.
#include <gtest/gtest.h>

#include <sstream>

#include "hns_test_support.hpp"
#include "sim/hns/bridge_episode.hpp"

using namespace hns_test;

namespace {

struct Transcript {
    std::int64_t seed = 0;
    std::string room;
    std::vector<boost::json::object> lines;
};

Transcript transcript(const std::string& key) {
    Transcript t;
    const auto summary = boost::json::parse(read_file(vector_dir() + "/gv2/bridge_summary.json"));
    const auto& entry = summary.at("seeds").at(key).as_object();
    t.seed = entry.at("seedInt").as_int64();
    t.room = std::string(entry.at("room").as_string());
    std::istringstream in(read_file(vector_dir() + "/gv2/" + std::string(entry.at("file").as_string())));
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) t.lines.push_back(boost::json::parse(line).as_object());
    return t;
}

// Checks our current decision against one of the transcript's decision observations.
void expect_decision(const hns::BridgeEpisode& episode, const boost::json::object& want, int& checked) {
    ASSERT_EQ(want.at("kind").as_string(), "decision");
    ASSERT_FALSE(episode.finished());
    EXPECT_EQ(episode.decision(), want.at("decision_id").as_int64());
    ASSERT_EQ(episode.seat(), want.at("seat").as_int64()) << "decision " << episode.decision();
    const std::string ours = episode.seat_view();
    EXPECT_EQ(boost::json::parse(ours), want.at("semantic_view")) << "decision " << episode.decision();
    EXPECT_EQ(ours, want.at("messages").as_array().at(0).at("content").as_string()) << "decision " << episode.decision();
    ++checked;
}

void replay_transcript(const std::string& key) {
    const Transcript t = transcript(key);
    ASSERT_FALSE(t.lines.empty());
    auto config = hns::resolve_room_spec(hns::bridge_config(t.seed));
    ASSERT_TRUE(config) << config.error;
    auto episode = hns::BridgeEpisode::create(*config);
    ASSERT_TRUE(episode) << episode.error;
    EXPECT_EQ(episode->sim().room().name, t.room);
    int checked = 0, steps = 0;
    bool terminal = false;
    for (const auto& line : t.lines) {
        const auto& request = line.at("request").as_object();
        const auto& response = line.at("response").as_object();
        const auto kind = request.at("kind").as_string();
        if (kind == "reset") {
            expect_decision(*episode, response, checked);
        } else if (kind == "step") {
            if (response.at("kind") != "accepted") continue;  // stale or outside the catalog: no effect
            ASSERT_EQ(request.at("decision_id").as_int64(), episode->decision());
            episode->answer(request.at("response").as_string());
            ++steps;
            const auto& next = response.at("observation").as_object();
            if (next.at("kind") == "terminal") {
                ASSERT_TRUE(episode->finished());
                const auto results = boost::json::parse(episode->sim().results_json());
                for (int s = 0; s < hns::kSeats; ++s)
                    EXPECT_EQ(results.at("scores").as_array()[s].as_double(),
                              next.at("scores").at(std::to_string(s)).as_double()) << "seat " << s;
                terminal = true;
            } else {
                expect_decision(*episode, next, checked);
            }
        }
    }
    EXPECT_TRUE(terminal);
    EXPECT_EQ(steps, 48);
    EXPECT_EQ(checked, 48);  // 2 games x (2 prep turns x 3 hiders + 3 hunt turns x 6 seats)
}

}  // namespace

TEST(HnsBridgeSeatView, TeacherTranscriptInWarrenMatchesEveryDecision) { replay_transcript("0"); }

TEST(HnsBridgeSeatView, CatalogTranscriptInAtriumMatchesEveryDecision) { replay_transcript("1"); }

TEST(HnsBridgeSeatView, AFinishedEpisodeIgnoresAnswers) {
    auto config = hns::resolve_room_spec(hns::bridge_config(42));
    ASSERT_TRUE(config) << config.error;
    auto episode = hns::BridgeEpisode::create(*config);
    ASSERT_TRUE(episode) << episode.error;
    EXPECT_EQ(episode->seat(), 0);  // game 1's prep: the hiders, slot 0 first
    int answered = 0;
    // Garbage, an empty reply and an unknown object all leave the seat a legal order.
    const char* replies[] = {"not json", "", R"({"intent":"push","object":"nothing"})", R"({"intent":"watch"})"};
    while (!episode->finished() && answered < 1000) episode->answer(replies[answered++ % 4]);
    EXPECT_TRUE(episode->finished());
    EXPECT_EQ(answered, 48);
    EXPECT_EQ(episode->seat_view(), "{}");
    const auto results = boost::json::parse(episode->sim().results_json());
    EXPECT_EQ(results.at("games").as_int64(), 2);
    episode->answer(R"({"intent":"watch"})");
    EXPECT_TRUE(episode->finished());
}
