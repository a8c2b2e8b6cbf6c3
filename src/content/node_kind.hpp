#pragma once
// The four levels of a school tree, numbered as on the wire (MapSnapshot node kind).
#include <cstdint>
#include <optional>
#include <string_view>

namespace hschool::content {

enum class NodeKind : std::uint8_t { Territory = 0, Building = 1, Floor = 2, Room = 3 };

// "territory" | "building" | "floor" | "room", as written in defs and the catalog.
std::string_view node_kind_name(NodeKind kind);
std::optional<NodeKind> node_kind_from_name(std::string_view name);
// The kind a node of `kind` must have as its parent; nullopt for the territory (no parent).
std::optional<NodeKind> required_parent_kind(NodeKind kind);

}  // namespace hschool::content
