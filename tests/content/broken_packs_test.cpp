// Packs that cannot be loaded give invalid-catalog with the file and the problem in the detail.
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "content/library.hpp"
#include "temp_mods.hpp"

namespace hschool::content {
namespace {

using ::testing::HasSubstr;
using test_support::TempMods;

constexpr const char* kRoomLabels = R"({ "types": { "room.extra": "Extra" } })";

// Resolves core + "broken" from a temp mods dir holding a copy of core and the given pack.
Problem resolve_broken(const TempMods& mods) {
    const ContentLibrary library = ContentLibrary::scan(mods.dir());
    const std::vector<std::string> extras{"broken"};
    auto resolved = library.resolve(extras);
    EXPECT_FALSE(resolved);
    return resolved ? Problem{} : resolved.error();
}

class BrokenPack : public ::testing::Test {
protected:
    void SetUp() override { mods.copy_shipped("core"); }
    TempMods mods;
};

TEST_F(BrokenPack, BadJsoncSyntaxNamesTheFileAndLine) {
    mods.write_pack("broken");
    mods.write("broken/defs/a.jsonc", "// comment\n{ \"defs\": [\n  { \"id\": \"room.extra\" ,, }\n] }\n");
    const Problem problem = resolve_broken(mods);
    EXPECT_EQ(problem.code, "invalid-catalog");
    EXPECT_THAT(problem.detail, HasSubstr("mods/broken/defs/a.jsonc: line 3:"));
}

TEST_F(BrokenPack, CommentsAndTrailingCommasAreAccepted) {
    mods.write_pack("broken", kRoomLabels, kRoomLabels);
    mods.write("broken/defs/a.jsonc", "/* block */ { \"defs\": [ { \"id\": \"room.extra\", \"parent\": \"room.base\", }, ], }");
    const ContentLibrary library = ContentLibrary::scan(mods.dir());
    const std::vector<std::string> extras{"broken"};
    auto resolved = library.resolve(extras);
    ASSERT_TRUE(resolved) << resolved.error().detail;
    EXPECT_NE(resolved->catalog().find("room.extra"), nullptr);
}

TEST_F(BrokenPack, UnknownParentNamesTheDefAndFile) {
    mods.write_pack("broken");
    mods.write("broken/defs/a.jsonc", R"({ "defs": [ { "id": "room.gym2", "parent": "room.nothing" } ] })");
    const Problem problem = resolve_broken(mods);
    EXPECT_EQ(problem.code, "invalid-catalog");
    EXPECT_THAT(problem.detail, HasSubstr("mods/broken/defs/a.jsonc: def 'room.gym2': inherits unknown 'room.nothing'"));
}

TEST_F(BrokenPack, InheritanceCycleIsReported) {
    mods.write_pack("broken");
    mods.write("broken/defs/a.jsonc", R"({ "defs": [
        { "id": "room.a", "parent": "room.b" },
        { "id": "room.b", "parent": "room.a" } ] })");
    const Problem problem = resolve_broken(mods);
    EXPECT_EQ(problem.code, "invalid-catalog");
    EXPECT_THAT(problem.detail, HasSubstr("mods/broken/defs/a.jsonc"));
    EXPECT_THAT(problem.detail, HasSubstr("inheritance cycle"));
}

TEST_F(BrokenPack, MissingLangFileIsNamed) {
    mods.write("broken/pack.jsonc", R"({ "id": "broken" })");
    mods.write("broken/lang/ru.jsonc", "{}");
    const Problem problem = resolve_broken(mods);
    EXPECT_EQ(problem.code, "invalid-catalog");
    EXPECT_THAT(problem.detail, HasSubstr("mods/broken/lang/en.jsonc: file is missing"));
}

TEST_F(BrokenPack, MissingLabelOfAPlaceableTypeIsReported) {
    mods.write_pack("broken", kRoomLabels, "{}");
    mods.write("broken/defs/a.jsonc", R"({ "defs": [ { "id": "room.extra", "parent": "room.base" } ] })");
    const Problem problem = resolve_broken(mods);
    EXPECT_EQ(problem.code, "invalid-catalog");
    EXPECT_THAT(problem.detail, HasSubstr("mods/broken/defs/a.jsonc: def 'room.extra': no English label for the type"));
}

TEST_F(BrokenPack, MissingItemLabelIsReported) {
    mods.write_pack("broken", kRoomLabels, kRoomLabels);
    mods.write("broken/defs/a.jsonc", R"({ "defs": [ { "id": "room.extra", "parent": "room.base", "items": ["gizmo"] } ] })");
    const Problem problem = resolve_broken(mods);
    EXPECT_THAT(problem.detail, HasSubstr("no Russian label for item 'gizmo'"));
}

TEST_F(BrokenPack, UnknownFieldInADefIsATypo) {
    mods.write_pack("broken");
    mods.write("broken/defs/a.jsonc", R"({ "defs": [ { "id": "room.extra", "parent": "room.base", "abstarct": true } ] })");
    EXPECT_THAT(resolve_broken(mods).detail, HasSubstr("mods/broken/defs/a.jsonc: def 'room.extra': unknown field 'abstarct'"));
}

TEST_F(BrokenPack, KindDifferentFromTheParentIsRefused) {
    mods.write_pack("broken");
    mods.write("broken/defs/a.jsonc", R"({ "defs": [ { "id": "room.extra", "parent": "room.base", "kind": "floor" } ] })");
    EXPECT_THAT(resolve_broken(mods).detail, HasSubstr("differs from its parent 'room.base'"));
}

TEST_F(BrokenPack, RemovingAnEntryThatIsNotInheritedIsRefused) {
    mods.write_pack("broken");
    mods.write("broken/defs/a.jsonc",
               R"({ "defs": [ { "id": "room.extra", "parent": "room.base", "items": [{ "id": "piano", "count": 0 }] } ] })");
    EXPECT_THAT(resolve_broken(mods).detail, HasSubstr("removes item 'piano' that it does not inherit"));
}

TEST_F(BrokenPack, ManifestIdMustMatchTheFolder) {
    mods.write("broken/pack.jsonc", R"({ "id": "other" })");
    EXPECT_THAT(resolve_broken(mods).detail, HasSubstr("mods/broken/pack.jsonc: id 'other' does not match"));
}

TEST_F(BrokenPack, OnlyCoreMayBeRequired) {
    mods.write("broken/pack.jsonc", R"({ "id": "broken", "required": true })");
    EXPECT_THAT(resolve_broken(mods).detail, HasSubstr("only the core pack can be required"));
}

TEST_F(BrokenPack, InvalidDefaultMapIsAnInvalidCatalog) {
    mods.write_pack("broken");
    mods.write("broken/maps/default.jsonc", R"({ "nodes": [ { "id": "yard", "def": "territory.yard" } ], "links": [] })");
    const Problem problem = resolve_broken(mods);
    EXPECT_EQ(problem.code, "invalid-catalog");
    EXPECT_THAT(problem.detail, HasSubstr("mods/broken/maps/default.jsonc: the map has no rooms"));
}

TEST_F(BrokenPack, ABrokenExtraDoesNotBreakCoreAlone) {
    mods.write("broken/pack.jsonc", "{ nope");
    const ContentLibrary library = ContentLibrary::scan(mods.dir());
    EXPECT_EQ(library.mods().size(), 2U);  // still listed
    EXPECT_TRUE(library.resolve({}));
}

TEST(ModsFolder, FoldersWithoutAManifestAreNotPacks) {
    TempMods mods;
    mods.copy_shipped("core");
    mods.write("notes/readme.txt", "not a pack");
    mods.write_pack("zeta");
    mods.write_pack("alpha");
    const auto listed = ContentLibrary::scan(mods.dir()).mods();
    ASSERT_EQ(listed.size(), 3U);
    EXPECT_EQ(listed[0].id, "core");
    EXPECT_EQ(listed[1].id, "alpha");
    EXPECT_EQ(listed[2].id, "zeta");
}

TEST(ModsFolder, MissingCoreIsAnInvalidCatalog) {
    TempMods mods;
    mods.write_pack("alpha");
    auto resolved = ContentLibrary::scan(mods.dir()).resolve({});
    ASSERT_FALSE(resolved);
    EXPECT_EQ(resolved.error().code, "invalid-catalog");
    EXPECT_THAT(resolved.error().detail, HasSubstr("'core'"));
}

TEST(ModsFolder, MissingModsFolderListsNothing) {
    const ContentLibrary library = ContentLibrary::scan("/nonexistent/hschool/mods");
    EXPECT_TRUE(library.mods().empty());
    EXPECT_FALSE(library.resolve({}));
}

}  // namespace
}  // namespace hschool::content
