#pragma once
// What makes a parsed map a school: one yard, rooms, known placeable defs, a proper tree, connectivity.
#include <optional>
#include <string>

#include "content/catalog.hpp"
#include "content/school_map.hpp"

namespace hschool::content {

// The first rule the map breaks, as a sentence naming the node or link; nullopt when the map is valid.
// Rules and their order are listed in docs/content.md.
std::optional<std::string> first_map_violation(const SchoolMap& map, const Catalog& catalog);

}  // namespace hschool::content
