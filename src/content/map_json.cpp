#include "content/map_json.hpp"

#include <tuple>

#include "content/json_fields.hpp"
#include "content/limits.hpp"

namespace hschool::content {

namespace {

std::string where_node(std::size_t index) { return "nodes[" + std::to_string(index) + "]"; }
std::string where_link(std::size_t index) { return "links[" + std::to_string(index) + "]"; }

Expected<MapNode, std::string> parse_node(const boost::json::value& json, std::size_t index) {
    if (!json.is_object()) return unexpected(where_node(index) + " must be an object, not " + json_kind_name(json));
    const boost::json::object& object = json.get_object();
    MapNode node;
    // id and def must be there; parent and name may be left out.
    for (auto [key, target, required] : {std::tuple{"id", &node.id, true}, std::tuple{"def", &node.def, true},
                                         std::tuple{"parent", &node.parent, false}, std::tuple{"name", &node.name, false}}) {
        auto text = required ? required_string(object, key) : optional_string(object, key);
        if (!text) return unexpected(where_node(index) + ": " + text.error());
        *target = std::move(*text);
    }
    return node;
}

Expected<MapLink, std::string> parse_link(const boost::json::value& json, std::size_t index) {
    if (!json.is_object()) return unexpected(where_link(index) + " must be an object, not " + json_kind_name(json));
    const boost::json::object& object = json.get_object();
    MapLink link;
    for (auto [key, target] : {std::pair{"from", &link.from}, std::pair{"to", &link.to}, std::pair{"kind", &link.kind}}) {
        auto text = required_string(object, key);
        if (!text) return unexpected(where_link(index) + ": " + text.error());
        *target = std::move(*text);
    }
    return link;
}

}  // namespace

Expected<SchoolMap, std::string> parse_map_json(const boost::json::value& json) {
    if (!json.is_object()) return unexpected("the map must be an object, not " + json_kind_name(json));
    const boost::json::object& object = json.get_object();

    const boost::json::value* nodes = object.if_contains("nodes");
    if (nodes == nullptr) return unexpected(std::string("'nodes' is missing"));
    if (!nodes->is_array()) return unexpected("'nodes' must be an array, not " + json_kind_name(*nodes));
    if (nodes->get_array().size() > limits::kMaxMapNodes) {
        return unexpected("too many nodes: " + std::to_string(nodes->get_array().size()) + " (at most " +
                          std::to_string(limits::kMaxMapNodes) + ")");
    }
    const boost::json::value* links = object.if_contains("links");
    const bool has_links = links != nullptr && !links->is_null();
    if (has_links && !links->is_array()) return unexpected("'links' must be an array, not " + json_kind_name(*links));
    if (has_links && links->get_array().size() > limits::kMaxMapLinks) {
        return unexpected("too many links: " + std::to_string(links->get_array().size()) + " (at most " +
                          std::to_string(limits::kMaxMapLinks) + ")");
    }

    SchoolMap map;
    map.nodes.reserve(nodes->get_array().size());
    for (std::size_t i = 0; i < nodes->get_array().size(); ++i) {
        auto node = parse_node(nodes->get_array()[i], i);
        if (!node) return unexpected(std::move(node).error());
        map.nodes.push_back(std::move(*node));
    }
    if (!has_links) return map;
    map.links.reserve(links->get_array().size());
    for (std::size_t i = 0; i < links->get_array().size(); ++i) {
        auto link = parse_link(links->get_array()[i], i);
        if (!link) return unexpected(std::move(link).error());
        map.links.push_back(std::move(*link));
    }
    return map;
}

}  // namespace hschool::content
