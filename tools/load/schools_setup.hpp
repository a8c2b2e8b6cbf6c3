#pragma once
// Makes sure the server has schools to watch, through the REST API, and returns their ids.
#include <cstdint>
#include <string>
#include <vector>

namespace hschool::load {

inline constexpr int kWantedSchools = 6;  // the server's default maxSchools

struct SchoolsSetup {
    std::vector<std::int32_t> ids;
    int created = 0;
    std::string error;  // empty on success
};

SchoolsSetup ensure_schools(const std::string& host, std::uint16_t port, int wanted = kWantedSchools);

}  // namespace hschool::load
