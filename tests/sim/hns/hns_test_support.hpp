#pragma once
// Shared helpers for the hide-and-seek tests: vector files, a sim for a variant and seed, and
// the reference driver's join and mask rules.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <fstream>
#include <sstream>
#include <string>

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

inline std::uint64_t hex(const boost::json::value& v) {
    return std::stoull(std::string(v.as_string()), nullptr, 16);
}

// GameVersion 1 unless asked: tests/vectors/hns holds the reference's GameVersion 1 numbers.
inline hns::Sim make_sim(const std::string& variant, long long seed, hns::GameVersion version = hns::GameVersion::V1) {
    auto config = hns::variant_config(variant);
    EXPECT_TRUE(config) << config.error;
    config->seed = seed;
    config->gameVersion = version;
    auto resolved = hns::resolve_room_spec(*config);
    EXPECT_TRUE(resolved) << resolved.error;
    auto sim = hns::Sim::create(*resolved);
    EXPECT_TRUE(sim) << sim.error;
    return std::move(*sim);
}

// The reference driver's six trusted joins: Cog<i+1> into slot i.
inline void join_six(hns::Sim& sim) {
    for (int i = 0; i < 6; ++i) {
        auto r = sim.add_player("Cog" + std::to_string(i + 1), i, "", true);
        ASSERT_TRUE(r) << r.error;
    }
}

}  // namespace hns_test
