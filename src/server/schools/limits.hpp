#pragma once
// The schools' own limits (v4 on /ws/game and the menu's REST); the process's are in server/limits.hpp.
#include <cstddef>

namespace hschool::server {

inline constexpr std::size_t kMaxSchools = 6;   // the v4 Welcome's max_schools
inline constexpr std::size_t kMaxModIds = 32;   // far more than there are packs; keeps hostile lists short

}  // namespace hschool::server
