#pragma once
// The labelled node list a MapSnapshot carries: parents before children, names in one language.
#include <string>
#include <vector>

#include "content/catalog.hpp"
#include "content/lang.hpp"
#include "content/node_kind.hpp"
#include "content/school_map.hpp"

namespace hschool::content {

struct TreeNode {
    NodeKind kind = NodeKind::Room;
    std::string id;
    std::string parent;                  // empty for the yard
    std::string name;                    // the custom name, else the def's label
    std::vector<std::string> items;      // "Парта ×15": one per item, with the count when above 1
    std::vector<std::string> positions;  // "Место за партой 3": one per place a person can take
    bool operator==(const TreeNode&) const = default;
};

// Depth-first from the roots, children in map order. Meant for validated maps; on any other map it
// still never fails: unknown defs show their id with no items, and nodes unreachable by parent are left out.
std::vector<TreeNode> build_tree(const SchoolMap& map, const Catalog& catalog, Lang lang);

}  // namespace hschool::content
