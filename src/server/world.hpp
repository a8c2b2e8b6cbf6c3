#pragma once
// Everything the loop thread owns, in the order it is stepped.
#include "server/arena_service.hpp"
#include "server/schools_service.hpp"

namespace hschool::server {

class World {
public:
    World(ArenaService& arena_service, SchoolsService& schools_service)
        : arena(arena_service), schools(schools_service) {}
    ArenaService& arena;
    SchoolsService& schools;
};

}  // namespace hschool::server
