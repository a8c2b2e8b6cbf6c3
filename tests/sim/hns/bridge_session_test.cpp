// The training bridge against the reference's own transcripts: every request line of both GV2
// bridge transcripts (tests/vectors/hns/gv2/bridge_seed_{0,1}.jsonl, numeric_bridge.nim driven over
// stdin) sent to a BridgeSession, and every answer equal to the reference's byte for byte — the
// decisions with their views and schemas, encode's 356 values and 107-entry catalog, the teacher's
// choice, both rejections and the terminal scores. Then the seed hash, and the lines where the
// reference dies, each answered with an error line that leaves the episode as it was.
#include <gtest/gtest.h>

#include <sstream>

#include "hns_test_support.hpp"
#include "sim/hns/bridge_session.hpp"
#include "sim/hns/order_catalog.hpp"
#include "sim/hns/replay.hpp"
#include "sim/hns/string_seed.hpp"
#include "sim/hns/verify.hpp"

using namespace hns_test;

namespace {

struct Exchange {
    std::string request, response;  // the raw lines, as the reference read and wrote them
};

// Each transcript line is {"request":<raw line>,"response":<raw line>} with both embedded verbatim;
// a request never holds `,"response":{` (a step's response is a string), so the first one splits.
std::vector<Exchange> exchanges(const std::string& file) {
    std::vector<Exchange> out;
    std::istringstream in(read_file(vector_dir() + "/gv2/" + file));
    const std::string head = "{\"request\":", split = ",\"response\":{";
    for (std::string line; std::getline(in, line);) {
        if (line.empty()) continue;
        const auto at = line.find(split);
        EXPECT_EQ(line.rfind(head, 0), 0u);
        EXPECT_NE(at, std::string::npos);
        out.push_back({line.substr(head.size(), at - head.size()), line.substr(at + split.size() - 1, line.size() - at - split.size())});
    }
    return out;
}

hns::BridgeSession session(bool record = false, hns::BridgeSession::EpisodeEnd on_end = {}) {
    return hns::BridgeSession([](hns::GameConfig c) { return hns::resolve_room_spec(std::move(c)); }, record, std::move(on_end));
}

void replay_transcript(const std::string& file, int want_rejections) {
    const auto lines = exchanges(file);
    ASSERT_FALSE(lines.empty());
    auto bridge = session();
    int rejections = 0, terminals = 0, encodes = 0, teachers = 0, identical = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string ours = bridge.handle_line(lines[i].request);
        // Compared as JSON values: an integer never equals a float, strings byte for byte (so the
        // view's text in messages[0].content shows Nim's float form, 0.9340000000000001). The
        // recorder re-wrote the outer lines, so their own floats are in its form (0.934), not Nim's.
        ASSERT_EQ(boost::json::parse(ours), boost::json::parse(lines[i].response)) << "line " << i + 1 << ": " << lines[i].request;
        // A line may differ in bytes only where Nim writes a float in 16 or 17 digits.
        if (ours == lines[i].response) ++identical;
        else EXPECT_TRUE(ours.find("000000000") != std::string::npos || ours.find("999999999") != std::string::npos) << "line " << i + 1;
        const auto response = boost::json::parse(ours).as_object();
        if (response.contains("values")) ++encodes;
        if (response.contains("response")) ++teachers;
        if (response.if_contains("kind") && response.at("kind") == "rejected") ++rejections;
        if (const auto* o = response.if_contains("observation"); o && o->at("kind") == "terminal") ++terminals;
    }
    EXPECT_EQ(encodes, 48);
    EXPECT_EQ(teachers, 48);
    EXPECT_EQ(rejections, want_rejections);
    EXPECT_EQ(terminals, 1);
    EXPECT_TRUE(bridge.finished());
    EXPECT_GT(identical, static_cast<int>(lines.size()) / 2);
}

// A started episode of the warren transcript's seed, at its first decision.
std::string first_decision(hns::BridgeSession& bridge) { return bridge.handle_line(R"({"kind":"reset","seed":"0","players":6})"); }

std::string reason_of(const std::string& line) {
    const auto v = boost::json::parse(line).as_object();
    EXPECT_EQ(v.at("kind"), "error") << line;
    return std::string(v.at("reason").as_string());
}

}  // namespace

TEST(HnsBridgeSession, TeacherTranscriptInWarrenIsAnsweredAsTheReferenceDid) { replay_transcript("bridge_seed_0.jsonl", 0); }

TEST(HnsBridgeSession, CatalogTranscriptInAtriumIsAnsweredAsTheReferenceDidWithItsRejections) {
    replay_transcript("bridge_seed_1.jsonl", 2);
}

TEST(HnsBridgeSession, SeedStringsHashAsNim) {
    // The gv2 README's values: Nim 2.x hash(string) is FarmHash Fingerprint64, masked by hash(high(int)).
    EXPECT_EQ(hns::nim_string_hash(""), -7286425919675154353LL);
    EXPECT_EQ(hns::nim_string_hash("abracadabra"), -1119910118870047694LL);
    EXPECT_EQ(hns::bridge_seed_of("0"), -9078814839853187016LL);
    EXPECT_EQ(hns::bridge_seed_of("1"), -9222525378270527072LL);
    EXPECT_EQ(hns::bridge_seed_of("42"), 576622416214721800LL);
    const auto summary = vector_json("gv2/bridge_summary.json");
    for (const char* key : {"0", "1"})
        EXPECT_EQ(hns::bridge_seed_of(key), summary.at("seeds").at(key).at("seedInt").as_int64()) << key;
}

TEST(HnsBridgeSession, HostileLinesGetErrorLinesAndKeepTheEpisode) {
    auto bridge = session();
    EXPECT_EQ(reason_of(bridge.handle_line(R"({"kind":"encode"})")), "no episode yet: send a reset first");
    EXPECT_EQ(reason_of(bridge.handle_line(R"({"kind":"step","decision_id":0,"response":"{\"intent\":\"watch\"}"})")),
              "no episode yet: send a reset first");
    const std::string first = first_decision(bridge);
    const std::string encoded = bridge.handle_line(R"({"kind":"encode"})");
    const std::vector<std::string> hostile = {
        "",
        "not json",
        "{\"kind\":\"encode\"",                 // truncated
        "[1,2,3]",                              // not an object
        "{\"kind\":7}",                         // a kind of the wrong type
        "{\"kind\":\"explode\"}",               // an unknown kind
        "{\"kind\":\"reset\",\"seed\":0,\"players\":6}",        // a seed that is not a string
        "{\"kind\":\"reset\",\"seed\":\"0\",\"players\":5}",    // not six players
        "{\"kind\":\"reset\",\"seed\":\"0\"}",                  // no players
        "{\"kind\":\"step\",\"decision_id\":\"0\",\"response\":\"{\\\"intent\\\":\\\"watch\\\"}\"}",  // id as text
        "{\"kind\":\"step\",\"decision_id\":0.0,\"response\":\"{\\\"intent\\\":\\\"watch\\\"}\"}",    // id as float
        "{\"kind\":\"step\",\"decision_id\":0,\"response\":{\"intent\":\"watch\"}}",  // the order not as text
        "{\"kind\":\"step\",\"decision_id\":0}",                                    // no order
        "{\"kind\":\"step\",\"decision_id\":0,\"response\":\"{not json\"}",         // an order that is not JSON
        "{\"kind\":\"reset\",\"seed\":\"" + std::string(hns::kMaxBridgeSeedBytes + 1, 's') + "\",\"players\":6}",
        std::string(hns::kMaxBridgeLineBytes + 1, ' '),  // oversized
        "{\"kind\":\"encode\",\"x\":" + std::string(100, '[') + std::string(100, ']') + "}",  // too deep
        "\xff\xfe{\"kind\":\"encode\"}",         // not UTF-8
    };
    for (const auto& line : hostile) {
        const std::string answer = bridge.handle_line(line);
        EXPECT_FALSE(reason_of(answer).empty()) << line.substr(0, 80);
        // Nothing moved: the same decision, the same encoding.
        EXPECT_EQ(bridge.decision_id(), 0) << line.substr(0, 80);
        EXPECT_EQ(bridge.handle_line(R"({"kind":"encode"})"), encoded) << line.substr(0, 80);
    }
    EXPECT_EQ(reason_of(bridge.handle_line(std::string(hns::kMaxBridgeLineBytes + 1, 'x'))),
              "line is over 65536 bytes");
    EXPECT_EQ(reason_of(bridge.handle_line(R"({"kind":"explode"})")), R"(unknown kind "explode")");
    // Rejections, not errors, for the two the reference rejects; an order with a float target or an
    // extra key is outside the catalog too (JSON equality: an integer is never a float).
    const auto rejected = [&](const std::string& line) {
        const auto v = boost::json::parse(bridge.handle_line(line)).as_object();
        EXPECT_EQ(v.at("kind"), "rejected") << line;
        return std::string(v.at("reason").as_string());
    };
    EXPECT_EQ(rejected(R"({"kind":"step","decision_id":1,"response":"{\"intent\":\"watch\"}"})"), "stale decision");
    EXPECT_EQ(rejected(R"({"kind":"step","decision_id":-1,"response":"{\"intent\":\"watch\"}"})"), "stale decision");
    EXPECT_EQ(rejected(R"({"kind":"step","decision_id":0,"response":"{\"intent\":\"watch\",\"say\":\"hi\"}"})"),
              "action outside visible order catalog");
    EXPECT_EQ(rejected(R"({"kind":"step","decision_id":0,"response":"{\"intent\":\"push\",\"object\":\"pan2\",\"to\":[256.0,104]}"})"),
              "action outside visible order catalog");
    EXPECT_EQ(rejected(R"({"kind":"step","decision_id":0,"response":"7"})"), "action outside visible order catalog");
    EXPECT_EQ(bridge.handle_line(R"({"kind":"encode"})"), encoded);
    // Keys in another order are the same order, as JSON equality has it; the answer echoes them as sent.
    const auto accepted = boost::json::parse(bridge.handle_line(
        R"({"kind":"step","decision_id":0,"response":"{\"to\":[256,104],\"object\":\"pan2\",\"intent\":\"push\"}"})"));
    EXPECT_EQ(accepted.at("kind"), "accepted");
    EXPECT_EQ(bridge.decision_id(), 1);
    // A reset mid-episode starts the seed's episode afresh.
    EXPECT_EQ(first_decision(bridge), first);
    EXPECT_EQ(bridge.decision_id(), 0);
}

TEST(HnsBridgeSession, AFinishedEpisodeAnswersErrorsUntilTheNextReset) {
    auto bridge = session();
    first_decision(bridge);
    int steps = 0;
    while (!bridge.finished() && steps < 1000) {
        ASSERT_EQ(bridge.step_index(0), hns::BridgeSession::StepResult::Accepted);  // watch: always available
        ++steps;
    }
    EXPECT_EQ(steps, 48);
    for (const char* line : {R"({"kind":"encode"})", R"({"kind":"teacher"})",
                             R"({"kind":"step","decision_id":48,"response":"{\"intent\":\"watch\"}"})",
                             R"({"kind":"step","decision_id":47,"response":"{\"intent\":\"watch\"}"})"})
        EXPECT_EQ(reason_of(bridge.handle_line(line)), "the episode is over: send a reset") << line;
    EXPECT_EQ(bridge.step_index(0), hns::BridgeSession::StepResult::NoDecision);
    // A reset starts afresh: the same seed gives the same first decision as a new bridge's.
    auto fresh = session();
    EXPECT_EQ(first_decision(bridge), first_decision(fresh));
    EXPECT_EQ(bridge.decision_id(), 0);
}

TEST(HnsBridgeSession, TheTypedCallsPlayTheSameEpisodeAsTheLines) {
    // The catalog transcript's rule, once through JSON lines and once through indices: same scores.
    auto lines = session();
    auto typed = session();
    first_decision(lines);
    ASSERT_FALSE(typed.reset("0"));
    hns::NumericValues values{};
    hns::LegalMask mask{};
    while (typed.has_decision()) {
        ASSERT_TRUE(typed.observe(values, mask));
        const auto encoded = boost::json::parse(lines.handle_line(R"({"kind":"encode"})")).as_object();
        std::vector<int> legal;
        for (int i = 0; i < hns::kCatalogSize; ++i) {
            EXPECT_EQ(mask[static_cast<std::size_t>(i)] != 0, !encoded.at("actions").as_array()[static_cast<std::size_t>(i)].is_null());
            if (mask[static_cast<std::size_t>(i)]) legal.push_back(i);
        }
        for (int i = 0; i < hns::kNumericValueCount; ++i)
            EXPECT_EQ(values[static_cast<std::size_t>(i)], encoded.at("values").as_array()[static_cast<std::size_t>(i)].to_number<double>());
        const int pick = legal[static_cast<std::size_t>(typed.decision_id() * 31 + typed.seat()) % legal.size()];
        const std::string order = boost::json::serialize(encoded.at("actions").as_array()[static_cast<std::size_t>(pick)]);
        boost::json::object step{{"kind", "step"}, {"decision_id", typed.decision_id()}, {"response", order}};
        ASSERT_EQ(boost::json::parse(lines.handle_line(boost::json::serialize(step))).at("kind"), "accepted");
        ASSERT_EQ(typed.step_index(pick), hns::BridgeSession::StepResult::Accepted);
    }
    EXPECT_TRUE(lines.finished());
    EXPECT_EQ(typed.scores(), lines.scores());
    EXPECT_EQ(typed.step_index(0), hns::BridgeSession::StepResult::NoDecision);
    ASSERT_FALSE(typed.reset("1"));
    EXPECT_EQ(typed.step_index(-1), hns::BridgeSession::StepResult::OutsideCatalog);
    EXPECT_EQ(typed.step_index(hns::kCatalogSize), hns::BridgeSession::StepResult::OutsideCatalog);
}

TEST(HnsBridgeSession, AnEpisodesReplayVerifies) {
    std::vector<std::pair<std::string, std::string>> ended;
    auto bridge = session(true, [&](const std::string& seed, const std::string& replay) { ended.emplace_back(seed, replay); });
    for (const auto& line : exchanges("bridge_seed_1.jsonl")) bridge.handle_line(line.request);
    ASSERT_EQ(ended.size(), 1u);
    EXPECT_EQ(ended[0].first, "1");
    auto data = hns::parse_replay(ended[0].second);
    ASSERT_TRUE(data) << data.error;
    const auto report = hns::verify_replay(*data);
    EXPECT_TRUE(report.ok) << report.message();
    EXPECT_GT(report.checked, 100);
    // The re-stepped episode settles to the scores the bridge answered.
    const auto results = boost::json::parse(report.results);
    for (int s = 0; s < hns::kSeats; ++s)
        EXPECT_EQ(results.at("scores").as_array()[static_cast<std::size_t>(s)].as_double(), bridge.scores()[static_cast<std::size_t>(s)]);
}
