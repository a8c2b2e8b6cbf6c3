#include "content/school_map.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

namespace hschool::content {

namespace {

boost::json::object node_to_json(const MapNode& node) {
    boost::json::object out;
    out["id"] = node.id;
    out["def"] = node.def;
    if (!node.parent.empty()) out["parent"] = node.parent;
    if (!node.name.empty()) out["name"] = node.name;
    return out;
}

boost::json::object link_to_json(const MapLink& link) {
    boost::json::object out;
    out["from"] = link.from;
    out["to"] = link.to;
    out["kind"] = link.kind;
    return out;
}

}  // namespace

boost::json::value map_to_json(const SchoolMap& map) {
    boost::json::array nodes;
    nodes.reserve(map.nodes.size());
    for (const MapNode& node : map.nodes) nodes.emplace_back(node_to_json(node));
    boost::json::array links;
    links.reserve(map.links.size());
    for (const MapLink& link : map.links) links.emplace_back(link_to_json(link));
    boost::json::object out;
    out["nodes"] = std::move(nodes);
    out["links"] = std::move(links);
    return out;
}

}  // namespace hschool::content
