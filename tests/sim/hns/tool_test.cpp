// The hschool-hns binary end to end: run twice gives byte-identical replays, verify accepts
// them and the reference replays, a flipped mask byte makes verify name that tick, info prints.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "hns_test_support.hpp"
#include "sim/hns/constants.hpp"
#include "sim/hns/replay.hpp"

using namespace hns_test;

namespace {

using Ran = CommandRun;

Ran run(const std::string& args) { return run_command(std::string(HSCHOOL_HNS_TOOL) + " " + args + " 2>/dev/null"); }

std::string scratch(const char* name) { return (std::filesystem::path(HSCHOOL_TEST_SCRATCH_DIR) / name).string(); }

}  // namespace

TEST(HnsTool, RunTwiceIsByteIdenticalAndVerifies) {
    const std::string a = scratch("hns_a.replay"), b = scratch("hns_b.replay"), ra = scratch("hns_a.json");
    ASSERT_EQ(run("run --variant certification --seed 42 --quiet --replay " + a + " --results " + ra).code, 0);
    ASSERT_EQ(run("run --variant certification --seed 42 --quiet --replay " + b).code, 0);
    const std::string bytesA = read_file(a);
    EXPECT_FALSE(bytesA.empty());
    EXPECT_EQ(bytesA, read_file(b));
    const auto results = boost::json::parse(read_file(ra)).as_object();
    EXPECT_EQ(results.at("finalTick").as_int64(), 949);
    const Ran v = run("verify " + a);
    EXPECT_EQ(v.code, 0) << v.out;
    EXPECT_NE(v.out.find("all 949 hashes match"), std::string::npos) << v.out;
    const Ran info = run("info " + a);
    EXPECT_EQ(info.code, 0);
    EXPECT_NE(info.out.find("final tick 949"), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("Cog6"), std::string::npos) << info.out;
}

TEST(HnsTool, VerifyAcceptsBothReferenceReplays) {
    for (const char* name : {"cert_zero.cowldhns", "cert_formula.cowldhns"}) {
        const Ran v = run("verify " + vector_dir() + "/" + name);
        EXPECT_EQ(v.code, 0) << name << ": " << v.out;
    }
}

TEST(HnsTool, VerifyAndInfoNameEachReplaysGameVersion) {
    for (const auto& [file, version] : {std::pair{vector_dir() + "/cert_formula.cowldhns", "1"},
                                        std::pair{vector_dir() + "/gv2/cert_formula.cowldhns", "2"},
                                        std::pair{vector_dir() + "/gv2/warren_s42_zero.cowldhns", "2"}}) {
        const Ran v = run("verify " + file);
        EXPECT_EQ(v.code, 0) << file << ": " << v.out;
        EXPECT_EQ(v.out.rfind("game version " + std::string(version) + ": all ", 0), 0u) << v.out;
        const Ran info = run("info " + file);
        EXPECT_NE(info.out.find("game       hide-and-seek " + std::string(version)), std::string::npos) << info.out;
    }
}

TEST(HnsTool, RunPlaysTheAskedGameVersion) {
    const std::string v1 = scratch("hns_v1.replay"), v2 = scratch("hns_v2.replay");
    const Ran one = run("run --variant certification --seed 42 --quiet --game-version 1 --replay " + v1);
    ASSERT_EQ(one.code, 0);
    EXPECT_NE(one.out.find("game version 1"), std::string::npos) << one.out;
    // GameVersion 1's six burrow seats, as pinned before GameVersion 2 existed.
    EXPECT_NE(one.out.find("hash 0x2bf4c5d51a03475a"), std::string::npos) << one.out;
    ASSERT_EQ(run("run --variant certification --seed 42 --quiet --replay " + v2).code, 0);
    EXPECT_EQ(run("verify " + v1).out.rfind("game version 1: all 949", 0), 0u);
    EXPECT_EQ(run("verify " + v2).out.rfind("game version 2: all 949", 0), 0u);
    EXPECT_EQ(run("run --variant certification --quiet --game-version 3").code, 2);
}

TEST(HnsTool, FlippedMaskByteNamesTheTick) {
    const std::string a = scratch("hns_flip.replay");
    ASSERT_EQ(run("run --variant certification --seed 42 --quiet --replay " + a).code, 0);
    std::string bytes = read_file(a);
    auto d = hns::parse_replay(bytes);
    ASSERT_TRUE(d);
    // Find the first input record of a hider in game 1 after tick 20 and flip its B bit.
    const std::size_t header = 8 + 2 + 2 + 13 + 2 + 1 + 8 + 2 + d->configJson.size();
    std::size_t off = header;
    int applyTick = -1;
    while (off < bytes.size()) {
        const auto type = static_cast<unsigned char>(bytes[off]);
        if (type == hns::kRecHash) off += 13;
        else if (type == hns::kRecInput) {
            const std::uint32_t ms = static_cast<unsigned char>(bytes[off + 1]) | (static_cast<unsigned char>(bytes[off + 2]) << 8);
            const int player = static_cast<unsigned char>(bytes[off + 5]);
            if (player % 2 == 0 && ms > 1000 && ms < 7000) {
                bytes[off + 6] = static_cast<char>(static_cast<unsigned char>(bytes[off + 6]) ^ hns::kBtnB);
                applyTick = 0;
                while (hns::replay_tick_time(applyTick) < ms) ++applyTick;
                break;
            }
            off += 7;
        } else if (type == hns::kRecJoin) {
            off += 6;
            off += 2 + (static_cast<unsigned char>(bytes[off]) | (static_cast<unsigned char>(bytes[off + 1]) << 8));
            off += 2;
            off += 2 + (static_cast<unsigned char>(bytes[off]) | (static_cast<unsigned char>(bytes[off + 1]) << 8));
        } else if (type == hns::kRecChat) {
            off += 6;
            off += 2 + (static_cast<unsigned char>(bytes[off]) | (static_cast<unsigned char>(bytes[off + 1]) << 8));
        } else {
            FAIL() << "unexpected record " << int(type);
        }
    }
    ASSERT_GT(applyTick, 0);
    const std::string flipped = scratch("hns_flipped.replay");
    {
        std::FILE* f = std::fopen(flipped.c_str(), "wb");
        ASSERT_NE(f, nullptr);
        std::fwrite(bytes.data(), 1, bytes.size(), f);
        std::fclose(f);
    }
    const Ran v = run("verify " + flipped);
    EXPECT_EQ(v.code, 1) << v.out;
    EXPECT_NE(v.out.find("mismatch at tick " + std::to_string(applyTick + 1) + ":"), std::string::npos) << v.out;
}

TEST(HnsTool, BadInputsExitTwo) {
    EXPECT_EQ(run("verify /nonexistent.replay").code, 2);
    EXPECT_EQ(run("run --variant arena --quiet").code, 2);
    EXPECT_EQ(run("").code, 2);
}
