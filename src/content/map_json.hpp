#pragma once
// The shape check of a map in its JSON form; the rules about what the map means live in map_rules.
#include <string>

#include <boost/json/value.hpp>

#include "content/expected.hpp"
#include "content/school_map.hpp"

namespace hschool::content {

// Wrong types or shape, or more nodes/links than the limits, give a sentence naming where.
// Unknown fields are ignored (and not kept), so newer clients can send more.
Expected<SchoolMap, std::string> parse_map_json(const boost::json::value& json);

}  // namespace hschool::content
