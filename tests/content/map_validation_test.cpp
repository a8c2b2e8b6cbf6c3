// Each reason a client map is refused, one test each, checked against core's catalog.
#include <string>
#include <vector>

#include <boost/json.hpp>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "content/library.hpp"
#include "content/limits.hpp"
#include "temp_mods.hpp"

namespace hschool::content {
namespace {

using ::testing::HasSubstr;

const ResolvedPacks& core() {
    static const ResolvedPacks packs = [] {
        auto resolved = ContentLibrary::scan(test_support::kShippedMods).resolve({});
        if (!resolved) throw std::runtime_error(resolved.error().detail);
        return std::move(resolved).value();
    }();
    return packs;
}

// yard → building b → floor f → rooms r1 (corridor, entered from the yard) and r2 (maths, off the corridor).
SchoolMap small_school() {
    return SchoolMap{
        {{"yard", "territory.yard", "", ""},
         {"b", "building.main", "yard", ""},
         {"f", "floor.first", "b", ""},
         {"r1", "room.corridor", "f", ""},
         {"r2", "room.classroom.math", "f", "Кабинет 12"}},
        {{"yard", "r1", "entrance"}, {"r1", "r2", "door"}},
    };
}

std::string refusal(const SchoolMap& map) {
    auto checked = core().validate_map(map_to_json(map));
    EXPECT_FALSE(checked);
    if (checked) return {};
    EXPECT_EQ(checked.error().code, "invalid-map");
    return checked.error().detail;
}

std::string refusal(const boost::json::value& json) {
    auto checked = core().validate_map(json);
    EXPECT_FALSE(checked);
    if (checked) return {};
    EXPECT_EQ(checked.error().code, "invalid-map");
    return checked.error().detail;
}

MapNode& node(SchoolMap& map, const std::string& id) {
    for (MapNode& n : map.nodes) {
        if (n.id == id) return n;
    }
    throw std::runtime_error("no node " + id);
}

TEST(MapValidation, SmallSchoolIsValidAndRoundTrips) {
    auto checked = core().validate_map(map_to_json(small_school()));
    ASSERT_TRUE(checked) << checked.error().detail;
    EXPECT_EQ(*checked, small_school());
}

TEST(MapValidation, RawJsonTextIsAccepted) {
    const std::string text = boost::json::serialize(map_to_json(small_school()));
    EXPECT_TRUE(core().validate_map_text(text));
}

TEST(MapValidation, NoYard) {
    SchoolMap map = small_school();
    map.nodes.erase(map.nodes.begin());
    map.links.erase(map.links.begin());
    EXPECT_THAT(refusal(map), HasSubstr("no yard"));
}

TEST(MapValidation, TwoYards) {
    SchoolMap map = small_school();
    map.nodes.push_back({"yard2", "territory.yard", "", ""});
    EXPECT_THAT(refusal(map), HasSubstr("node 'yard2': a second yard"));
}

TEST(MapValidation, NoRooms) {
    SchoolMap map = small_school();
    map.nodes.resize(3);
    map.links.clear();
    EXPECT_THAT(refusal(map), HasSubstr("no rooms"));
}

TEST(MapValidation, UnknownDef) {
    SchoolMap map = small_school();
    node(map, "r2").def = "room.dungeon";
    EXPECT_THAT(refusal(map), HasSubstr("node 'r2': unknown def 'room.dungeon'"));
}

TEST(MapValidation, AbstractDef) {
    SchoolMap map = small_school();
    node(map, "r2").def = "room.classroom";
    EXPECT_THAT(refusal(map), HasSubstr("node 'r2': def 'room.classroom' is abstract"));
}

TEST(MapValidation, DefFromAnUnselectedPack) {
    SchoolMap map = small_school();
    node(map, "r2").def = "room.pool";  // the annex's, not selected here
    EXPECT_THAT(refusal(map), HasSubstr("node 'r2': unknown def 'room.pool'"));
}

TEST(MapValidation, DuplicateId) {
    SchoolMap map = small_school();
    map.nodes.push_back({"r2", "room.library", "f", ""});
    EXPECT_THAT(refusal(map), HasSubstr("node 'r2': the id is used by more than one node"));
}

TEST(MapValidation, EmptyId) {
    SchoolMap map = small_school();
    map.nodes.push_back({"", "room.library", "f", ""});
    EXPECT_THAT(refusal(map), HasSubstr("nodes[5]: the id is empty"));
}

TEST(MapValidation, IdTooLong) {
    SchoolMap map = small_school();
    map.nodes.push_back({std::string(limits::kMaxNodeIdBytes + 1, 'x'), "room.library", "f", ""});
    EXPECT_THAT(refusal(map), HasSubstr("nodes[5]: the id is longer than"));
}

TEST(MapValidation, NameTooLong) {
    SchoolMap map = small_school();
    std::string name;
    for (std::size_t i = 0; i <= limits::kMaxNodeNameChars; ++i) name += "я";
    node(map, "r2").name = name;
    EXPECT_THAT(refusal(map), HasSubstr("node 'r2': the name is longer than"));
}

TEST(MapValidation, NameOfExactlyTheLimitInCyrillicIsFine) {
    SchoolMap map = small_school();
    std::string name;
    for (std::size_t i = 0; i < limits::kMaxNodeNameChars; ++i) name += "я";
    node(map, "r2").name = name;
    EXPECT_TRUE(core().validate_map(map));
}

TEST(MapValidation, ControlCharacterInName) {
    SchoolMap map = small_school();
    node(map, "r2").name = "Room\n12";
    EXPECT_THAT(refusal(map), HasSubstr("node 'r2': the name has control characters"));
}

TEST(MapValidation, C1ControlInNameIsRefused) {
    SchoolMap map = small_school();
    node(map, "r2").name = "Room\xC2\x85" "12";  // U+0085 NEL
    EXPECT_THAT(refusal(map), HasSubstr("node 'r2': the name has control characters"));
}

TEST(MapValidation, BidiOverrideInNameIsRefused) {
    SchoolMap map = small_school();
    node(map, "r2").name = "Room \xE2\x80\xAE" "21";  // U+202E right-to-left override
    EXPECT_THAT(refusal(map), HasSubstr("node 'r2': the name has control characters, bidi controls"));
}

TEST(MapValidation, RightToLeftLettersInNameAreFine) {
    SchoolMap map = small_school();
    node(map, "r2").name = "\xD7\x97\xD7\x93\xD7\xA8 12";  // Hebrew "room": letters, not controls
    EXPECT_TRUE(core().validate_map(map));
}

TEST(MapValidation, BadParentKind) {
    SchoolMap map = small_school();
    node(map, "r2").parent = "b";
    EXPECT_THAT(refusal(map), HasSubstr("node 'r2': parent 'b' is a building; a room's parent must be a floor"));
}

TEST(MapValidation, MissingParent) {
    SchoolMap map = small_school();
    node(map, "r2").parent = "f9";
    EXPECT_THAT(refusal(map), HasSubstr("node 'r2': parent 'f9' does not exist"));
}

TEST(MapValidation, NoParentForARoom) {
    SchoolMap map = small_school();
    node(map, "r2").parent.clear();
    EXPECT_THAT(refusal(map), HasSubstr("node 'r2': a room needs a parent floor"));
}

TEST(MapValidation, YardWithAParent) {
    SchoolMap map = small_school();
    node(map, "yard").parent = "f";
    EXPECT_THAT(refusal(map), HasSubstr("node 'yard': the yard cannot have a parent"));
}

TEST(MapValidation, LinkToUnknownNode) {
    SchoolMap map = small_school();
    map.links.push_back({"r2", "ghost", "door"});
    EXPECT_THAT(refusal(map), HasSubstr("node 'ghost' does not exist"));
}

TEST(MapValidation, LinkOfUnknownKind) {
    SchoolMap map = small_school();
    map.links[1].kind = "teleport";
    EXPECT_THAT(refusal(map), HasSubstr("kind 'teleport' is not door, stairs or entrance"));
}

TEST(MapValidation, LinkToItself) {
    SchoolMap map = small_school();
    map.links.push_back({"r1", "r1", "door"});
    EXPECT_THAT(refusal(map), HasSubstr("a link must join two different nodes"));
}

TEST(MapValidation, DisconnectedRoom) {
    SchoolMap map = small_school();
    map.links.pop_back();
    EXPECT_THAT(refusal(map), HasSubstr("node 'r2': the room cannot be reached from the yard 'yard'"));
}

TEST(MapValidation, LinksAreUndirected) {
    SchoolMap map = small_school();
    map.links = {{"r1", "yard", "entrance"}, {"r2", "r1", "door"}};
    EXPECT_TRUE(core().validate_map(map));
}

TEST(MapValidation, ParentIsNotAPathRoomsNeedLinks) {
    SchoolMap map = small_school();
    map.links.clear();  // the tree alone does not connect rooms to the yard
    EXPECT_THAT(refusal(map), HasSubstr("node 'r1': the room cannot be reached"));
}

TEST(MapValidation, NotAnObject) {
    EXPECT_THAT(refusal(boost::json::value(boost::json::array{1, 2})), HasSubstr("the map must be an object, not an array"));
    EXPECT_THAT(refusal(boost::json::value(nullptr)), HasSubstr("the map must be an object, not null"));
}

TEST(MapValidation, NodesMissingOrNotAnArray) {
    EXPECT_THAT(refusal(boost::json::parse(R"({"links": []})")), HasSubstr("'nodes' is missing"));
    EXPECT_THAT(refusal(boost::json::parse(R"({"nodes": {}})")), HasSubstr("'nodes' must be an array, not an object"));
    EXPECT_THAT(refusal(boost::json::parse(R"({"nodes": [], "links": 3})")), HasSubstr("'links' must be an array"));
}

TEST(MapValidation, WrongFieldTypes) {
    EXPECT_THAT(refusal(boost::json::parse(R"({"nodes": [ {"id": 5, "def": "territory.yard"} ]})")),
                HasSubstr("nodes[0]: 'id' must be a string, not a number"));
    EXPECT_THAT(refusal(boost::json::parse(R"({"nodes": [ "yard" ]})")), HasSubstr("nodes[0] must be an object, not a string"));
    EXPECT_THAT(refusal(boost::json::parse(R"({"nodes": [ {"id": "yard"} ]})")), HasSubstr("nodes[0]: 'def' is missing"));
    EXPECT_THAT(refusal(boost::json::parse(R"({"nodes": [], "links": [ {"from": "a", "to": true, "kind": "door"} ]})")),
                HasSubstr("links[0]: 'to' must be a string, not a boolean"));
}

TEST(MapValidation, NotJsonText) {
    auto checked = core().validate_map_text("{ \"nodes\": [");
    ASSERT_FALSE(checked);
    EXPECT_EQ(checked.error().code, "invalid-map");
    EXPECT_THAT(checked.error().detail, HasSubstr("not JSON"));
}

TEST(MapValidation, TooManyNodes) {
    boost::json::array nodes;
    for (std::size_t i = 0; i <= limits::kMaxMapNodes; ++i) {
        nodes.push_back(boost::json::object{{"id", "n" + std::to_string(i)}, {"def", "room.corridor"}});
    }
    EXPECT_THAT(refusal(boost::json::value(boost::json::object{{"nodes", nodes}})), HasSubstr("too many nodes: 2001"));
}

TEST(MapValidation, TooManyLinks) {
    boost::json::array links;
    for (std::size_t i = 0; i <= limits::kMaxMapLinks; ++i) links.push_back(boost::json::object{{"from", "a"}, {"to", "b"}, {"kind", "door"}});
    EXPECT_THAT(refusal(boost::json::value(boost::json::object{{"nodes", boost::json::array{}}, {"links", links}})),
                HasSubstr("too many links"));
}

TEST(MapValidation, UnknownFieldsAreIgnoredAndNotKept) {
    boost::json::value json = map_to_json(small_school());
    json.as_object()["editor"] = "v2";
    json.at("nodes").as_array()[0].as_object()["x"] = 12;
    auto checked = core().validate_map(json);
    ASSERT_TRUE(checked) << checked.error().detail;
    EXPECT_EQ(map_to_json(*checked), map_to_json(small_school()));
}

}  // namespace
}  // namespace hschool::content
