// The MapSnapshot tree: parents first, names and items labelled in the chosen language.
#include <algorithm>
#include <set>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "content/library.hpp"
#include "temp_mods.hpp"

namespace hschool::content {
namespace {

ResolvedPacks resolve(std::vector<std::string> extras) {
    auto resolved = ContentLibrary::scan(test_support::kShippedMods).resolve(extras);
    if (!resolved) throw std::runtime_error(resolved.error().detail);
    return std::move(resolved).value();
}

const TreeNode& find(const std::vector<TreeNode>& tree, const std::string& id) {
    auto it = std::find_if(tree.begin(), tree.end(), [&](const TreeNode& n) { return n.id == id; });
    if (it == tree.end()) throw std::runtime_error("no node " + id);
    return *it;
}

TEST(Tree, ParentsComeBeforeChildrenAndEveryNodeIsThere) {
    for (const auto& extras : {std::vector<std::string>{}, std::vector<std::string>{"annex"}}) {
        const ResolvedPacks packs = resolve(extras);
        const auto tree = packs.tree(packs.default_map(), Lang::Russian);
        ASSERT_EQ(tree.size(), packs.default_map().nodes.size());
        EXPECT_EQ(tree.front().kind, NodeKind::Territory);
        EXPECT_TRUE(tree.front().parent.empty());
        std::set<std::string> seen;
        for (const TreeNode& node : tree) {
            if (!node.parent.empty()) {
                EXPECT_TRUE(seen.contains(node.parent)) << node.id;
            }
            seen.insert(node.id);
        }
    }
}

TEST(Tree, NamesItemsAndPositionsAreLabelledInRussian) {
    const ResolvedPacks packs = resolve({});
    const auto tree = packs.tree(packs.default_map(), Lang::Russian);
    const TreeNode& math = find(tree, "room-203");
    EXPECT_EQ(math.kind, NodeKind::Room);
    EXPECT_EQ(math.parent, "main-2");
    EXPECT_EQ(math.name, "Кабинет математики");
    EXPECT_THAT(math.items, ::testing::Contains("Парта ×15"));
    EXPECT_THAT(math.items, ::testing::Contains("Доска"));
    EXPECT_THAT(math.positions, ::testing::Contains("Место за партой 1"));
    EXPECT_THAT(math.positions, ::testing::Contains("Место за партой 30"));
    EXPECT_THAT(math.positions, ::testing::Contains("Место учителя"));
    EXPECT_EQ(math.positions.size(), 32U);
    EXPECT_EQ(find(tree, "main").kind, NodeKind::Building);
    EXPECT_EQ(find(tree, "main-1").kind, NodeKind::Floor);
}

TEST(Tree, EnglishLabels) {
    const ResolvedPacks packs = resolve({"annex"});
    const auto tree = packs.tree(packs.default_map(), Lang::English);
    EXPECT_EQ(find(tree, "head-office").name, "Head's office");
    EXPECT_EQ(find(tree, "main").name, "Old building");
    EXPECT_THAT(find(tree, "pool").items, ::testing::Contains("Swimming lane ×6"));
}

TEST(Tree, CustomNameWinsOverTheLabel) {
    const ResolvedPacks packs = resolve({});
    SchoolMap map = packs.default_map();
    map.nodes[0].name = "Двор у реки";
    EXPECT_EQ(packs.tree(map, Lang::English).front().name, "Двор у реки");
}

TEST(Tree, EveryNodeFitsTheSnapshotLimits) {
    const ResolvedPacks packs = resolve({"annex"});
    for (const TreeNode& node : packs.tree(packs.default_map(), Lang::Russian)) {
        EXPECT_LE(node.items.size(), 255U) << node.id;
        EXPECT_LE(node.positions.size(), 255U) << node.id;
        EXPECT_FALSE(node.name.empty()) << node.id;
    }
}

TEST(Tree, UnvalidatedMapsNeverFail) {
    const ResolvedPacks packs = resolve({});
    const SchoolMap odd{{{"yard", "territory.gone", "", ""}, {"orphan", "room.gym", "missing", ""}}, {}};
    const auto tree = packs.tree(odd, Lang::Russian);
    ASSERT_EQ(tree.size(), 1U);  // the orphan has no path from a root
    EXPECT_EQ(tree[0].name, "territory.gone");
    EXPECT_TRUE(tree[0].items.empty());
}

}  // namespace
}  // namespace hschool::content
