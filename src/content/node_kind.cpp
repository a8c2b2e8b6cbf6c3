#include "content/node_kind.hpp"

namespace hschool::content {

std::string_view node_kind_name(NodeKind kind) {
    switch (kind) {
        case NodeKind::Territory: return "territory";
        case NodeKind::Building: return "building";
        case NodeKind::Floor: return "floor";
        case NodeKind::Room: return "room";
    }
    return "room";
}

std::optional<NodeKind> node_kind_from_name(std::string_view name) {
    for (NodeKind kind : {NodeKind::Territory, NodeKind::Building, NodeKind::Floor, NodeKind::Room}) {
        if (node_kind_name(kind) == name) return kind;
    }
    return std::nullopt;
}

std::optional<NodeKind> required_parent_kind(NodeKind kind) {
    switch (kind) {
        case NodeKind::Territory: return std::nullopt;
        case NodeKind::Building: return NodeKind::Territory;
        case NodeKind::Floor: return NodeKind::Building;
        case NodeKind::Room: return NodeKind::Floor;
    }
    return std::nullopt;
}

}  // namespace hschool::content
