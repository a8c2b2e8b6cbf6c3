#include "content/map_rules.hpp"

#include <deque>
#include <unordered_map>
#include <vector>

#include "content/limits.hpp"
#include "content/text_rules.hpp"

namespace hschool::content {

namespace {

std::string in_quotes(std::string_view text) { return "'" + std::string(text) + "'"; }
std::string node_ref(const MapNode& node) { return "node " + in_quotes(node.id); }

std::optional<std::string> check_sizes(const SchoolMap& map) {
    if (map.nodes.size() > limits::kMaxMapNodes) {
        return "too many nodes: " + std::to_string(map.nodes.size()) + " (at most " + std::to_string(limits::kMaxMapNodes) + ")";
    }
    if (map.links.size() > limits::kMaxMapLinks) {
        return "too many links: " + std::to_string(map.links.size()) + " (at most " + std::to_string(limits::kMaxMapLinks) + ")";
    }
    return std::nullopt;
}

std::optional<std::string> check_node_text(const MapNode& node, std::size_t index) {
    const std::string where = "nodes[" + std::to_string(index) + "]";
    if (node.id.empty()) return where + ": the id is empty";
    if (node.id.size() > limits::kMaxNodeIdBytes) {
        return where + ": the id is longer than " + std::to_string(limits::kMaxNodeIdBytes) + " bytes";
    }
    if (!is_clean_text(node.id)) return where + ": the id has control characters, bidi controls or invalid UTF-8";
    if (!is_clean_text(node.name)) return node_ref(node) + ": the name has control characters, bidi controls or invalid UTF-8";
    if (char_count(node.name) > limits::kMaxNodeNameChars) {
        return node_ref(node) + ": the name is longer than " + std::to_string(limits::kMaxNodeNameChars) + " characters";
    }
    return std::nullopt;
}

using KindById = std::unordered_map<std::string, NodeKind>;

// Ids unique, defs known and placeable; fills each node's kind from its def.
std::optional<std::string> check_nodes(const SchoolMap& map, const Catalog& catalog, KindById& kinds) {
    for (std::size_t i = 0; i < map.nodes.size(); ++i) {
        const MapNode& node = map.nodes[i];
        if (auto bad = check_node_text(node, i)) return bad;
        const Def* def = catalog.find(node.def);
        if (def == nullptr) return node_ref(node) + ": unknown def " + in_quotes(node.def);
        if (def->abstract) return node_ref(node) + ": def " + in_quotes(node.def) + " is abstract and cannot be placed";
        if (!kinds.emplace(node.id, def->kind).second) return node_ref(node) + ": the id is used by more than one node";
    }
    return std::nullopt;
}

std::optional<std::string> check_yard_and_rooms(const SchoolMap& map, const KindById& kinds) {
    std::size_t yards = 0;
    std::size_t rooms = 0;
    for (const MapNode& node : map.nodes) {
        const NodeKind kind = kinds.at(node.id);
        if (kind == NodeKind::Territory && ++yards > 1) {
            return node_ref(node) + ": a second yard (territory); a map has exactly one";
        }
        if (kind == NodeKind::Room) ++rooms;
    }
    if (yards == 0) return std::string("the map has no yard (a node whose def is a territory)");
    if (rooms == 0) return std::string("the map has no rooms");
    return std::nullopt;
}

std::optional<std::string> check_parents(const SchoolMap& map, const KindById& kinds) {
    for (const MapNode& node : map.nodes) {
        const std::optional<NodeKind> wanted = required_parent_kind(kinds.at(node.id));
        if (!wanted) {
            if (!node.parent.empty()) return node_ref(node) + ": the yard cannot have a parent";
            continue;
        }
        const std::string kind_name(node_kind_name(kinds.at(node.id)));
        if (node.parent.empty()) return node_ref(node) + ": a " + kind_name + " needs a parent " + std::string(node_kind_name(*wanted));
        auto parent = kinds.find(node.parent);
        if (parent == kinds.end()) return node_ref(node) + ": parent " + in_quotes(node.parent) + " does not exist";
        if (parent->second != *wanted) {
            return node_ref(node) + ": parent " + in_quotes(node.parent) + " is a " + std::string(node_kind_name(parent->second)) +
                   "; a " + kind_name + "'s parent must be a " + std::string(node_kind_name(*wanted));
        }
    }
    return std::nullopt;
}

bool is_link_kind(std::string_view kind) {
    return kind == link_kind::kDoor || kind == link_kind::kStairs || kind == link_kind::kEntrance;
}

std::optional<std::string> check_links(const SchoolMap& map, const KindById& kinds) {
    for (std::size_t i = 0; i < map.links.size(); ++i) {
        const MapLink& link = map.links[i];
        const std::string where = "link " + std::to_string(i) + " (" + in_quotes(link.from) + " → " + in_quotes(link.to) + ")";
        if (!kinds.contains(link.from)) return where + ": node " + in_quotes(link.from) + " does not exist";
        if (!kinds.contains(link.to)) return where + ": node " + in_quotes(link.to) + " does not exist";
        if (link.from == link.to) return where + ": a link must join two different nodes";
        if (!is_link_kind(link.kind)) return where + ": kind " + in_quotes(link.kind) + " is not door, stairs or entrance";
    }
    return std::nullopt;
}

// Links are undirected: walking a door or stairs works both ways.
std::optional<std::string> check_rooms_reachable(const SchoolMap& map, const KindById& kinds) {
    std::unordered_map<std::string_view, std::vector<std::string_view>> neighbours;
    for (const MapLink& link : map.links) {
        neighbours[link.from].push_back(link.to);
        neighbours[link.to].push_back(link.from);
    }
    std::string_view yard;
    for (const MapNode& node : map.nodes) {
        if (kinds.at(node.id) == NodeKind::Territory) yard = node.id;
    }
    std::unordered_map<std::string_view, bool> seen{{yard, true}};
    std::deque<std::string_view> frontier{yard};
    while (!frontier.empty()) {
        const std::string_view here = frontier.front();
        frontier.pop_front();
        for (std::string_view next : neighbours[here]) {
            if (seen.emplace(next, true).second) frontier.push_back(next);
        }
    }
    for (const MapNode& node : map.nodes) {
        if (kinds.at(node.id) == NodeKind::Room && !seen.contains(node.id)) {
            return node_ref(node) + ": the room cannot be reached from the yard " + in_quotes(yard) + " through links";
        }
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> first_map_violation(const SchoolMap& map, const Catalog& catalog) {
    if (auto bad = check_sizes(map)) return bad;
    KindById kinds;
    if (auto bad = check_nodes(map, catalog, kinds)) return bad;
    if (auto bad = check_yard_and_rooms(map, kinds)) return bad;
    if (auto bad = check_parents(map, kinds)) return bad;
    if (auto bad = check_links(map, kinds)) return bad;
    return check_rooms_reachable(map, kinds);
}

}  // namespace hschool::content
