#pragma once
// The arena without obstacles, which both the v1 and the v5 service tests play on.
#include "sim/arena/arena_settings.hpp"

namespace hschool::server {

inline sim::arena::ArenaSettings open_field() {
    sim::arena::ArenaSettings settings;
    settings.obstacle_count = 0;
    return settings;
}

}  // namespace hschool::server
