#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <string>

#include "replay_test_support.hpp"

namespace hschool::sim::replay {
namespace {

struct ToolRun {
    int exit_code = -1;
    std::string output;
};

std::string scratch_file(const std::string& name) { return std::string(HSCHOOL_TEST_SCRATCH_DIR) + "/" + name; }

void write_file(const std::string& path, const protocol::Bytes& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

ToolRun run_tool(const std::string& path) {
    const std::string command = std::string("'") + HSCHOOL_REPLAY_TOOL + "' '" + path + "' 2>&1";
    ToolRun run;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return run;
    std::array<char, 256> buffer{};
    while (fgets(buffer.data(), static_cast<int>(buffer.size()), pipe)) run.output += buffer.data();
    const int status = pclose(pipe);
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
}

TEST(ReplayTool, MatchingReplayExitsZero) {
    const auto path = scratch_file("tool_ok.hsreplay");
    write_file(path, testing::record_session(60).bytes);
    const auto run = run_tool(path);
    EXPECT_EQ(run.exit_code, 0);
    EXPECT_EQ(run.output, "all 60 ticks matched\n");
}

TEST(ReplayTool, TamperedReplayExitsOneWithTheTick) {
    auto bytes = testing::record_session(60).bytes;
    const auto ends = testing::record_ends(bytes);
    bytes[ends[42] - 1] ^= 0x80;
    const auto path = scratch_file("tool_tampered.hsreplay");
    write_file(path, bytes);
    const auto run = run_tool(path);
    EXPECT_EQ(run.exit_code, 1);
    EXPECT_EQ(run.output, "hash mismatch at tick 42\n");
}

TEST(ReplayTool, TruncatedReplayPassesAndSaysItWasTruncated) {
    auto bytes = testing::record_session(60).bytes;
    bytes.resize(bytes.size() - 5);
    const auto path = scratch_file("tool_truncated.hsreplay");
    write_file(path, bytes);
    const auto run = run_tool(path);
    EXPECT_EQ(run.exit_code, 0);
    EXPECT_NE(run.output.find("all 59 ticks matched"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("truncated"), std::string::npos) << run.output;
}

TEST(ReplayTool, GarbageAndMissingFilesExitTwo) {
    const auto path = scratch_file("tool_garbage.hsreplay");
    write_file(path, protocol::Bytes{'n', 'o', 't', ' ', 'a', ' ', 'r', 'e', 'p', 'l', 'a', 'y'});
    const auto garbage = run_tool(path);
    EXPECT_EQ(garbage.exit_code, 2);
    EXPECT_NE(garbage.output.find("bad magic"), std::string::npos) << garbage.output;

    const auto missing = run_tool(scratch_file("does_not_exist.hsreplay"));
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.output.find("cannot read"), std::string::npos) << missing.output;
}

}  // namespace
}  // namespace hschool::sim::replay
