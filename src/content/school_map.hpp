#pragma once
// A school layout: the node tree (yard → buildings → floors → rooms) plus the links between nodes.
#include <string>
#include <vector>

#include <boost/json/value.hpp>

namespace hschool::content {

struct MapNode {
    std::string id;      // instance id, unique in the map
    std::string def;     // a placeable def id; its kind is the node's kind
    std::string parent;  // empty for the yard
    std::string name;    // custom display name; empty → the def's label
    bool operator==(const MapNode&) const = default;
};

namespace link_kind {
inline constexpr const char* kDoor = "door";
inline constexpr const char* kStairs = "stairs";
inline constexpr const char* kEntrance = "entrance";
}  // namespace link_kind

struct MapLink {
    std::string from;
    std::string to;
    std::string kind;  // one of link_kind
    bool operator==(const MapLink&) const = default;
};

struct SchoolMap {
    std::vector<MapNode> nodes;
    std::vector<MapLink> links;
    bool operator==(const SchoolMap&) const = default;
};

// {"nodes":[{"id","def","parent"?,"name"?}],"links":[{"from","to","kind"}]}: the REST and storage form.
// "parent" and "name" are omitted when empty; parse_map_json reads this form back.
boost::json::value map_to_json(const SchoolMap& map);

}  // namespace hschool::content
