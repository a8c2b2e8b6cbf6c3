// The packs shipped under mods/: they load, merge last-wins, inherit, are fully labelled and valid.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <boost/json.hpp>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "content/library.hpp"
#include "temp_mods.hpp"

namespace hschool::content {
namespace {

using test_support::kShippedMods;

const ContentLibrary& shipped() {
    static const ContentLibrary library = ContentLibrary::scan(kShippedMods);
    return library;
}

ResolvedPacks resolve_ok(std::vector<std::string> extras) {
    auto resolved = shipped().resolve(extras);
    EXPECT_TRUE(resolved) << (resolved ? "" : resolved.error().detail);
    if (!resolved) throw std::runtime_error(resolved.error().detail);
    return std::move(resolved).value();
}

// Every selection of extras: each subset of the non-core packs, in listing order.
std::vector<std::vector<std::string>> every_selection() {
    std::vector<std::string> extras;
    for (const ModInfo& mod : shipped().mods()) {
        if (!mod.required) extras.push_back(mod.id);
    }
    std::vector<std::vector<std::string>> out;
    for (std::size_t mask = 0; mask < (std::size_t{1} << extras.size()); ++mask) {
        std::vector<std::string> selection;
        for (std::size_t i = 0; i < extras.size(); ++i) {
            if (mask & (std::size_t{1} << i)) selection.push_back(extras[i]);
        }
        out.push_back(selection);
    }
    return out;
}

const Def& def_of(const ResolvedPacks& packs, const std::string& id) {
    const Def* def = packs.catalog().find(id);
    if (def == nullptr) throw std::runtime_error("no def " + id);
    return *def;
}

std::size_t count_of(const std::vector<Entry>& entries, const std::string& id) {
    auto it = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) { return e.id == id; });
    return it == entries.end() ? 0 : it->count;
}

TEST(ShippedPacks, ListsCoreFirstAndRequiredThenExtras) {
    const auto mods = shipped().mods();
    ASSERT_GE(mods.size(), 2U);
    EXPECT_EQ(mods[0].id, "core");
    EXPECT_TRUE(mods[0].required);
    EXPECT_TRUE(std::any_of(mods.begin(), mods.end(), [](const ModInfo& m) { return m.id == "annex" && !m.required; }));
    for (std::size_t i = 2; i < mods.size(); ++i) EXPECT_LT(mods[i - 1].id, mods[i].id);
}

TEST(ShippedPacks, ModsJsonHasIdRequiredAndTitleInTheLanguage) {
    const auto json = mods_json(shipped().mods(), Lang::English);
    const auto& first = json.at("mods").at(0);
    EXPECT_EQ(first.at("id").as_string(), "core");
    EXPECT_EQ(first.at("required").as_bool(), true);
    EXPECT_EQ(first.at("title").as_string(), "Core");
}

TEST(ShippedPacks, CoreAloneResolves) {
    const ResolvedPacks packs = resolve_ok({});
    EXPECT_EQ(packs.mod_ids(), std::vector<std::string>{"core"});
    EXPECT_EQ(packs.default_map_pack(), "core");
}

TEST(ShippedPacks, CoreAndAnnexResolveInOrder) {
    const ResolvedPacks packs = resolve_ok({"annex"});
    EXPECT_EQ(packs.mod_ids(), (std::vector<std::string>{"core", "annex"}));
}

TEST(ShippedPacks, CoreAndRepeatsInExtrasAreIgnored) {
    const ResolvedPacks packs = resolve_ok({"core", "annex", "annex"});
    EXPECT_EQ(packs.mod_ids(), (std::vector<std::string>{"core", "annex"}));
}

TEST(ShippedPacks, UnknownModIsUnknownMod) {
    const std::vector<std::string> extras{"annex", "no-such-pack"};
    auto resolved = shipped().resolve(extras);
    ASSERT_FALSE(resolved);
    EXPECT_EQ(resolved.error().code, "unknown-mod");
    EXPECT_THAT(resolved.error().detail, ::testing::HasSubstr("'no-such-pack'"));
}

TEST(ShippedPacks, AnnexDefaultMapReplacesCores) {
    const ResolvedPacks core = resolve_ok({});
    const ResolvedPacks annex = resolve_ok({"annex"});
    EXPECT_EQ(annex.default_map_pack(), "annex");
    auto has_pool = [](const SchoolMap& map) {
        return std::any_of(map.nodes.begin(), map.nodes.end(), [](const MapNode& n) { return n.def == "room.pool"; });
    };
    EXPECT_FALSE(has_pool(core.default_map()));
    EXPECT_TRUE(has_pool(annex.default_map()));
}

TEST(ShippedPacks, AnnexOverridesACoreLabel) {
    const ResolvedPacks core = resolve_ok({});
    const ResolvedPacks annex = resolve_ok({"annex"});
    EXPECT_EQ(core.catalog().russian.types.at("building.main"), "Главный корпус");
    EXPECT_EQ(annex.catalog().russian.types.at("building.main"), "Старый корпус");
    EXPECT_EQ(annex.catalog().english.types.at("building.main"), "Old building");
}

TEST(ShippedPacks, AnnexReplacesTheCanteenDefWhole) {
    const ResolvedPacks core_packs = resolve_ok({});
    const ResolvedPacks annex_packs = resolve_ok({"annex"});
    const Def& core = def_of(core_packs, "room.canteen");
    const Def& annex = def_of(annex_packs, "room.canteen");
    EXPECT_EQ(count_of(core.positions, "canteen-seat"), 80U);
    EXPECT_EQ(count_of(annex.positions, "canteen-seat"), 120U);
    EXPECT_EQ(count_of(core.items, "salad-bar"), 0U);
    EXPECT_EQ(count_of(annex.items, "salad-bar"), 1U);
    EXPECT_EQ(annex.source, "mods/annex/defs/overrides.jsonc");
}

TEST(ShippedPacks, ClassroomsInheritBaseItemsAndExtendThem) {
    const ResolvedPacks packs = resolve_ok({});
    const Def& math = def_of(packs, "room.classroom.math");
    EXPECT_EQ(math.kind, NodeKind::Room);
    EXPECT_EQ(count_of(math.items, "desk"), 15U);        // from room.classroom
    EXPECT_EQ(count_of(math.items, "blackboard"), 1U);   // from room.classroom
    EXPECT_EQ(count_of(math.items, "window"), 3U);       // room.base's 2, overridden by room.classroom
    EXPECT_EQ(count_of(math.items, "ceiling-light"), 1U);  // from room.base, two levels up
    EXPECT_EQ(count_of(math.items, "math-tables"), 1U);  // its own
    EXPECT_EQ(count_of(math.positions, "desk-seat"), 30U);
}

TEST(ShippedPacks, ChildrenOverrideCountsAndRemoveInheritedEntries) {
    const ResolvedPacks packs = resolve_ok({});
    const Def& english = def_of(packs, "room.classroom.english");
    EXPECT_EQ(count_of(english.items, "desk"), 8U);
    EXPECT_EQ(count_of(english.items, "blackboard"), 0U);
    EXPECT_EQ(count_of(english.items, "interactive-board"), 1U);
    const Def& chemistry = def_of(packs, "room.lab.chemistry");
    EXPECT_EQ(count_of(chemistry.items, "desk"), 0U);
    EXPECT_EQ(count_of(chemistry.items, "lab-bench"), 8U);     // from room.lab
    EXPECT_EQ(count_of(chemistry.items, "teacher-desk"), 1U);  // from room.classroom through room.lab
    EXPECT_EQ(count_of(chemistry.positions, "lab-place"), 16U);
}

TEST(ShippedPacks, AnnexInheritsCoreBasesAcrossPacks) {
    const ResolvedPacks packs = resolve_ok({"annex"});
    const Def& changing = def_of(packs, "room.pool-changing.girls");
    EXPECT_EQ(count_of(changing.items, "locker"), 16U);  // core's room.locker-room
    EXPECT_EQ(count_of(changing.items, "shower"), 6U);   // annex's room.pool-changing
}

TEST(ShippedPacks, AbstractTypesAreAbsentFromTheCatalog) {
    for (const auto& selection : every_selection()) {
        const ResolvedPacks packs = resolve_ok(selection);
        const auto json = packs.catalog_json(Lang::Russian);
        std::set<std::string> listed;
        for (const auto& type : json.at("types").as_array()) listed.insert(std::string(type.at("id").as_string()));
        for (const auto& [id, def] : packs.catalog().defs) {
            EXPECT_EQ(listed.contains(id), !def.abstract) << id;
        }
        EXPECT_FALSE(listed.contains("room.classroom"));
        EXPECT_TRUE(listed.contains("room.classroom.math"));
    }
}

TEST(ShippedPacks, CatalogJsonShape) {
    const ResolvedPacks packs = resolve_ok({"annex"});
    const auto json = packs.catalog_json(Lang::English);
    EXPECT_EQ(json.at("lang").as_string(), "en");
    EXPECT_EQ(json.at("mods").as_array().size(), 2U);
    EXPECT_EQ(json.at("defaultMap"), map_to_json(packs.default_map()));
    const auto& types = json.at("types").as_array();
    const auto math = std::find_if(types.begin(), types.end(), [](const auto& t) { return t.at("id") == "room.classroom.math"; });
    ASSERT_NE(math, types.end());
    EXPECT_EQ(math->at("kind").as_string(), "room");
    EXPECT_EQ(math->at("label").as_string(), "Mathematics room");
    const auto& light = math->at("items").as_array().at(1);
    EXPECT_EQ(light.at("id").as_string(), "ceiling-light");
    EXPECT_EQ(light.at("label").as_string(), "Ceiling light");
    EXPECT_EQ(light.at("count").as_int64(), 1);
    EXPECT_EQ(types.front().at("kind").as_string(), "territory");  // ordered by kind
    EXPECT_EQ(types.back().at("kind").as_string(), "room");
}

TEST(ShippedPacks, EveryPlaceableTypeItemAndPositionIsLabelledInBothLanguages) {
    for (const auto& selection : every_selection()) {
        const ResolvedPacks packs = resolve_ok(selection);
        for (const Labels* labels : {&packs.catalog().russian, &packs.catalog().english}) {
            for (const auto& [id, def] : packs.catalog().defs) {
                if (def.abstract) continue;
                EXPECT_TRUE(labels->types.contains(id)) << id;
                for (const Entry& item : def.items) EXPECT_TRUE(labels->items.contains(item.id)) << id << " item " << item.id;
                for (const Entry& position : def.positions) {
                    EXPECT_TRUE(labels->positions.contains(position.id)) << id << " position " << position.id;
                }
            }
        }
        // Labels differ by language, so neither file is a copy of the other.
        EXPECT_NE(packs.catalog().russian.types.at("room.gym"), packs.catalog().english.types.at("room.gym"));
    }
}

TEST(ShippedPacks, DefaultMapOfEverySelectionIsValid) {
    for (const auto& selection : every_selection()) {
        const ResolvedPacks packs = resolve_ok(selection);
        auto checked = packs.validate_map(map_to_json(packs.default_map()));
        EXPECT_TRUE(checked) << (checked ? "" : checked.error().detail);
        if (checked) {
            EXPECT_EQ(*checked, packs.default_map());
        }
    }
}

TEST(ShippedPacks, CoreSchoolHasTheRoomsOfARussianSchool) {
    const ResolvedPacks packs = resolve_ok({});
    std::set<std::string> defs;
    std::size_t floors = 0;
    for (const MapNode& node : packs.default_map().nodes) {
        defs.insert(node.def);
        if (def_of(packs, node.def).kind == NodeKind::Floor) ++floors;
    }
    EXPECT_GE(floors, 3U);
    for (const char* wanted :
         {"territory.yard", "building.main", "room.classroom.russian", "room.classroom.math", "room.classroom.history",
          "room.classroom.geography", "room.classroom.english", "room.lab.physics", "room.lab.chemistry",
          "room.lab.biology", "room.computer", "room.gym", "room.canteen", "room.library", "room.staff",
          "room.office.head", "room.medical", "room.cloakroom", "room.corridor", "room.stairwell"}) {
        EXPECT_TRUE(defs.contains(wanted)) << wanted;
    }
    EXPECT_EQ(packs.catalog().russian.types.at("room.office.head"), "Кабинет директора");
}

TEST(ShippedPacks, EveryPlacedRoomHasItems) {
    const ResolvedPacks packs = resolve_ok({"annex"});
    for (const MapNode& node : packs.default_map().nodes) {
        const Def& def = def_of(packs, node.def);
        if (def.kind == NodeKind::Room) {
            EXPECT_FALSE(def.items.empty()) << node.id;
        }
    }
}

}  // namespace
}  // namespace hschool::content
