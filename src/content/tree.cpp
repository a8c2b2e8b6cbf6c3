#include "content/tree.hpp"

#include <unordered_map>
#include <unordered_set>

namespace hschool::content {

namespace {

constexpr std::string_view kTimesSign = " ×";

std::vector<std::string> item_labels(const Def& def, const Labels& labels) {
    std::vector<std::string> out;
    out.reserve(def.items.size());
    for (const Entry& item : def.items) {
        std::string text = label_or_id(labels.items, item.id);
        if (item.count > 1) text += std::string(kTimesSign) + std::to_string(item.count);
        out.push_back(std::move(text));
    }
    return out;
}

std::vector<std::string> position_labels(const Def& def, const Labels& labels) {
    std::vector<std::string> out;
    for (const Entry& position : def.positions) {
        const std::string& text = label_or_id(labels.positions, position.id);
        if (position.count == 1) {
            out.push_back(text);
            continue;
        }
        for (std::size_t n = 1; n <= position.count; ++n) out.push_back(text + " " + std::to_string(n));
    }
    return out;
}

TreeNode to_tree_node(const MapNode& node, const Catalog& catalog, const Labels& labels) {
    TreeNode out;
    out.id = node.id;
    out.parent = node.parent;
    const Def* def = catalog.find(node.def);
    if (def == nullptr) {
        out.name = node.name.empty() ? node.def : node.name;
        return out;
    }
    out.kind = def->kind;
    out.name = node.name.empty() ? label_or_id(labels.types, def->id) : node.name;
    out.items = item_labels(*def, labels);
    out.positions = position_labels(*def, labels);
    return out;
}

}  // namespace

std::vector<TreeNode> build_tree(const SchoolMap& map, const Catalog& catalog, Lang lang) {
    const Labels& labels = catalog.labels(lang);
    std::unordered_map<std::string_view, std::vector<const MapNode*>> children;
    std::vector<const MapNode*> roots;
    for (const MapNode& node : map.nodes) {
        if (node.parent.empty()) {
            roots.push_back(&node);
        } else {
            children[node.parent].push_back(&node);
        }
    }
    std::vector<TreeNode> out;
    out.reserve(map.nodes.size());
    std::unordered_set<std::string_view> emitted;
    // An explicit stack: a hostile map cannot make the recursion deep.
    std::vector<const MapNode*> stack(roots.rbegin(), roots.rend());
    while (!stack.empty()) {
        const MapNode* node = stack.back();
        stack.pop_back();
        if (!emitted.insert(node->id).second) continue;
        out.push_back(to_tree_node(*node, catalog, labels));
        const auto& kids = children[node->id];
        stack.insert(stack.end(), kids.rbegin(), kids.rend());
    }
    return out;
}

}  // namespace hschool::content
