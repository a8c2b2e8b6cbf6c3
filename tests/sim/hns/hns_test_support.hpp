#pragma once
// Shared helpers for the hide-and-seek tests: vector files, a sim for a variant and seed, and
// the reference driver's join and mask rules.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <boost/json.hpp>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "sim/hns/room_files.hpp"
#include "sim/hns/sim.hpp"

namespace hns_test {
namespace hns = hschool::sim::hns;

inline std::string vector_dir() { return std::string(HSCHOOL_SOURCE_DIR) + "/tests/vectors/hns"; }

inline std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline boost::json::value vector_json(const std::string& name) {
    return boost::json::parse(read_file(vector_dir() + "/" + name));
}

// A shell command's exit code and stdout (the tool tests run the real hschool-hns this way).
struct CommandRun {
    int code = -1;
    std::string out;
};

inline CommandRun run_command(const std::string& command) {
    CommandRun r;
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
    if (!pipe) return r;
    std::array<char, 65536> buf{};
    std::size_t n = 0;
    while ((n = fread(buf.data(), 1, buf.size(), pipe.get())) > 0) r.out.append(buf.data(), n);
    const int status = pclose(pipe.release());
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

inline std::uint64_t hex(const boost::json::value& v) {
    return std::stoull(std::string(v.as_string()), nullptr, 16);
}

// A sim for a config whose room is still to be pinned (resolve_room_spec).
inline hns::Sim sim_for(const hns::GameConfig& config) {
    auto resolved = hns::resolve_room_spec(config);
    EXPECT_TRUE(resolved) << resolved.error;
    auto sim = hns::Sim::create(*resolved);
    EXPECT_TRUE(sim) << sim.error;
    return std::move(*sim);
}

// GameVersion 1 unless asked: tests/vectors/hns holds the reference's GameVersion 1 numbers.
inline hns::Sim make_sim(const std::string& variant, long long seed, hns::GameVersion version = hns::GameVersion::V1) {
    auto config = hns::variant_config(variant);
    EXPECT_TRUE(config) << config.error;
    config->seed = seed;
    config->gameVersion = version;
    return sim_for(*config);
}

// The reference driver's six trusted joins: Cog<i+1> into slot i.
inline void join_six(hns::Sim& sim) {
    for (int i = 0; i < 6; ++i) {
        auto r = sim.add_player("Cog" + std::to_string(i + 1), i, "", true);
        ASSERT_TRUE(r) << r.error;
    }
}

// Certification seed 42 with six joined and one step taken: game 1 is playing from tick 1.
inline hns::Sim started_certification() {
    hns::Sim sim = make_sim("certification", 42);
    join_six(sim);
    std::vector<hns::Input> zero(6);
    sim.step(zero, zero);
    EXPECT_EQ(sim.phase(), hns::GamePhase::Playing);
    return sim;
}

}  // namespace hns_test
