// `hschool-hns bridge` end to end, on files fed to its stdin: the reference transcript through the
// real program with hostile lines between its requests (each answered with an error line, the
// episode unharmed), many environments in one batch line, and the binary framing with its hostile
// frames (unknown operations, wrong counts, truncated and oversized frames).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <sstream>

#include "bridge_frames.hpp"
#include "hns_test_support.hpp"
#include "sim/hns/bridge_session.hpp"

using namespace hns_test;
namespace th = hschool::tools::hns;

namespace {

using Ran = CommandRun;

std::string scratch(const std::string& name) { return (std::filesystem::path(HSCHOOL_TEST_SCRATCH_DIR) / name).string(); }

// Runs the bridge with `input` on its stdin (from a file: no pipe to deadlock on).
Ran bridge(const std::string& args, const std::string& input, const std::string& name) {
    const std::string in = scratch(name);
    {
        std::ofstream f(in, std::ios::binary | std::ios::trunc);
        f << input;
    }
    return run_command(std::string(HSCHOOL_HNS_TOOL) + " bridge " + args + " < " + in + " 2>/dev/null");
}

std::vector<boost::json::value> lines_of(const std::string& text) {
    std::vector<boost::json::value> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(boost::json::parse(line));
    return out;
}

std::string raw_frame(const std::string& payload) {
    std::string out(4, '\0');
    for (int i = 0; i < 4; ++i) out[static_cast<std::size_t>(i)] = static_cast<char>((payload.size() >> (8 * i)) & 0xFF);
    return out + payload;
}

std::string frame(const th::FrameRequest& request) { return raw_frame(th::frame_request_payload(request)); }

// The answers in a binary output, in order: records, or the error's text.
std::vector<hns::Expected<std::vector<th::EnvRecord>>> answers_of(const std::string& out) {
    std::vector<hns::Expected<std::vector<th::EnvRecord>>> answers;
    std::size_t at = 0;
    while (at + 4 <= out.size()) {
        std::uint32_t length = 0;
        for (int i = 0; i < 4; ++i) length |= static_cast<std::uint32_t>(static_cast<unsigned char>(out[at + static_cast<std::size_t>(i)])) << (8 * i);
        answers.push_back(th::parse_answer_payload(std::string_view(out).substr(at + 4, length)));
        at += 4 + length;
    }
    EXPECT_EQ(at, out.size());
    return answers;
}

}  // namespace

TEST(HnsBridgeTool, TheTranscriptThroughStdinWithHostileLinesBetween) {
    std::istringstream transcript(read_file(vector_dir() + "/gv2/bridge_seed_1.jsonl"));
    std::string input;
    std::vector<boost::json::value> want;
    std::vector<bool> hostile;
    const std::vector<std::string> junk = {"garbage", std::string(hns::kMaxBridgeLineBytes + 10, 'x'), "{\"kind\":\"fly\"}", "",
                                           "{\"kind\":\"step\",\"decision_id\":true,\"response\":\"{}\"}"};
    std::size_t n = 0;
    for (std::string line; std::getline(transcript, line); ++n) {
        const auto exchange = boost::json::parse(line).as_object();
        input += boost::json::serialize(exchange.at("request")) + "\n";
        want.push_back(exchange.at("response"));
        hostile.push_back(false);
        if (n % 10 == 3) {
            input += junk[(n / 10) % junk.size()] + "\n";
            want.emplace_back(nullptr);
            hostile.push_back(true);
        }
    }
    const Ran r = bridge("", input, "bridge_transcript.in");
    EXPECT_EQ(r.code, 0);
    const auto got = lines_of(r.out);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (hostile[i]) EXPECT_EQ(got[i].at("kind"), "error") << i;
        else EXPECT_EQ(got[i], want[i]) << "answer " << i;
    }
}

TEST(HnsBridgeTool, ManyEnvironmentsAnswerOneBatchLine) {
    const std::string input =
        R"({"kind":"batch","requests":[{"kind":"reset","seed":"0","players":6},{"kind":"reset","seed":"1","players":6},null]})" "\n"
        R"({"kind":"batch","requests":[{"kind":"encode"},{"kind":"teacher"},{"kind":"encode"}]})" "\n"
        R"({"env":1,"kind":"step","decision_id":0,"response":"{\"intent\":\"watch\"}"})" "\n"
        R"({"kind":"batch","requests":[null]})" "\n"
        R"({"env":9,"kind":"encode"})" "\n"
        R"({"kind":"encode"})" "\n";
    const Ran r = bridge("--envs 3 --threads 2", input, "bridge_batch.in");
    EXPECT_EQ(r.code, 0);
    const auto got = lines_of(r.out);
    ASSERT_EQ(got.size(), 6u);
    const auto& resets = got[0].at("responses").as_array();
    EXPECT_EQ(resets[0].at("semantic_view").at("room").at("name"), "warren");  // seed "0", as the transcript's
    EXPECT_EQ(resets[1].at("semantic_view").at("room").at("name"), "atrium");  // seed "1"
    EXPECT_TRUE(resets[2].is_null());
    const auto& second = got[1].at("responses").as_array();
    EXPECT_EQ(second[0].at("values").as_array().size(), 356u);
    EXPECT_EQ(second[1].at("response"), R"({"intent":"push","object":"box1","to":[184,108]})");  // the transcript's teacher
    EXPECT_EQ(second[2].at("reason"), "no episode yet: send a reset first");
    EXPECT_EQ(got[2].at("kind"), "accepted");
    EXPECT_EQ(got[2].at("observation").at("decision_id"), 1);
    for (std::size_t i = 3; i < 6; ++i) EXPECT_EQ(got[i].at("kind"), "error") << i;
}

TEST(HnsBridgeTool, BinaryFramesAndTheirHostileCousins) {
    th::FrameRequest reset;
    reset.op = th::FrameOp::Reset;
    reset.envs = 2;
    reset.seeds = {std::string("0"), std::nullopt};
    th::FrameRequest teacher;
    teacher.op = th::FrameOp::Teacher;
    teacher.envs = 2;
    th::FrameRequest step;
    step.op = th::FrameOp::Step;
    step.envs = 2;
    step.actions = {0, th::kLeaveEnvAction};
    th::FrameRequest masked = step;
    masked.actions = {106, 0};  // the last push slot: nothing in warren fills it; env 1 has no episode
    th::FrameRequest wrong_count = step;
    wrong_count.actions = {0, 0, 0};
    wrong_count.envs = 3;
    std::string input = frame(reset) + frame(teacher) + raw_frame(std::string("\x09\x02\x00", 3)) + frame(wrong_count) +
                        raw_frame(std::string("\x01\x02\x00\x05\x00" "ab", 7)) + raw_frame(std::string("\x04\x02\x00zz", 5)) +
                        raw_frame("") + frame(step) + frame(masked);
    input += std::string("\xff\xff\xff\x7f", 4) + "the rest is never read";
    const Ran r = bridge("--envs 2 --framing binary", input, "bridge_frames.in");
    EXPECT_EQ(r.code, 2);  // the impossible length ends the session, after an error frame
    const auto answers = answers_of(r.out);
    ASSERT_EQ(answers.size(), 10u);
    ASSERT_TRUE(answers[0]) << answers[0].error;
    const auto& first = *answers[0];
    EXPECT_EQ(first[0].state, th::EnvState::Decision);
    EXPECT_EQ(first[0].episode, 1u);
    EXPECT_EQ(first[0].mask[0], 1);
    EXPECT_EQ(first[0].values[10], 80.0f);  // the transcript's first decision: HIDER-alpha at (80, 320)
    EXPECT_EQ(first[0].values[11], 320.0f);
    EXPECT_EQ(first[1].state, th::EnvState::NoEpisode);
    ASSERT_TRUE(answers[1]);
    EXPECT_EQ((*answers[1])[0].teacher, 75 + 5);  // the transcript's teacher: push (75…) pan2 (object 5) to d1
    for (std::size_t i = 2; i <= 6; ++i) EXPECT_FALSE(answers[i]) << i;
    EXPECT_NE(answers[2].error.find("unknown operation 9"), std::string::npos) << answers[2].error;
    EXPECT_NE(answers[3].error.find("3 environments"), std::string::npos) << answers[3].error;
    ASSERT_TRUE(answers[7]);
    EXPECT_EQ((*answers[7])[0].decision, 1u);
    EXPECT_EQ((*answers[7])[0].seat, 2);  // prep: the next hider
    ASSERT_TRUE(answers[8]);
    EXPECT_EQ((*answers[8])[0].state, th::EnvState::Rejected);
    EXPECT_EQ((*answers[8])[0].decision, 1u);
    EXPECT_EQ((*answers[8])[1].state, th::EnvState::NoEpisode);
    EXPECT_FALSE(answers[9]);
}
