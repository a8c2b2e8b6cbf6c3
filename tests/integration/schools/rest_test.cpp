// The main menu's REST API: listing, creating and deleting schools, names, mods and the catalog.
#include <optional>
#include <set>

#include "schools_support.hpp"

namespace hschool::test::schools {
namespace {

class SchoolsApi : public ServerTest<isolated_server_args> {
protected:
    std::uint16_t port() const { return server.port(); }
    HttpResult post(const json::value& body) { return post_json(port(), "/api/schools", body); }
    HttpResult post_text(const std::string& body) { return post_json(port(), "/api/schools", body); }
};

// ---- GET /api/schools ----

TEST_F(SchoolsApi, AnEmptyListingCarriesTheLimitsAndDefaults) {
    const auto listing = get_object(port(), "/api/schools");
    EXPECT_EQ(listing.at("maxSchools"), json::value(kMaxSchools));
    EXPECT_EQ(listing.at("defaultStartDate"), json::value(kDefaultStartDate));
    EXPECT_EQ(listing.at("gameMinutesPerRealSecond"), json::value(5));
    ASSERT_TRUE(listing.at("schools").is_array());
    EXPECT_TRUE(listing.at("schools").as_array().empty());
}

TEST_F(SchoolsApi, ACreatedSchoolIsAnsweredWithItsObjectAndLocation) {
    const auto response = post(json::object{{"name", "Гимназия №14"}});
    ASSERT_EQ(response.status, 201U) << response.body;
    EXPECT_TRUE(response.headers.contains("content-type") && response.headers.at("content-type").starts_with("application/json"));
    const auto school = parse_json(response.body).as_object();
    ASSERT_TRUE(school.at("id").is_int64());
    const auto id = school.at("id").as_int64();
    EXPECT_GT(id, 0);
    ASSERT_TRUE(response.headers.contains("location"));
    EXPECT_EQ(response.headers.at("location"), "/api/schools/" + std::to_string(id));
    EXPECT_EQ(school.at("name"), json::value("Гимназия №14"));
    EXPECT_EQ(school.at("startDate"), json::value(kDefaultStartDate));
    EXPECT_EQ(school.at("modIds"), json::value(json::array{}));
    EXPECT_EQ(school.at("running"), json::value(true));
    EXPECT_EQ(school.at("speedIndex"), json::value(1));
    const auto game_time = iso_to_ms(school.at("gameTime").as_string());
    EXPECT_GE(game_time, kDefaultStartMs);
    EXPECT_LT(game_time, kDefaultStartMs + 60 * 60 * 1000) << "a new school starts at its start date";
}

TEST_F(SchoolsApi, TheListingShowsEachSchoolWithTheSameFields) {
    const auto first = create_school_id(port(), "Лицей «Северная»");
    const auto second = create_school_id(port(), "Northern Academy", {{"startDate", "1999-09-01T08:30:00Z"}});
    EXPECT_NE(first, second);
    const auto schools = list_schools(port());
    ASSERT_EQ(schools.size(), 2U);
    std::set<std::int64_t> ids;
    for (const auto& value : schools) {
        const auto& school = value.as_object();
        for (const char* field : {"id", "name", "gameTime", "running", "speedIndex"}) {
            EXPECT_TRUE(school.contains(field)) << field << " in " << json::serialize(school);
        }
        ids.insert(school.at("id").as_int64());
        EXPECT_TRUE(is_iso_instant(school.at("gameTime").as_string())) << school.at("gameTime");
        EXPECT_EQ(school.at("running"), json::value(true));
        EXPECT_EQ(school.at("speedIndex"), json::value(1));
    }
    EXPECT_EQ(ids, (std::set<std::int64_t>{first, second}));
    const auto northern = find_school(port(), second);
    ASSERT_TRUE(northern);
    EXPECT_EQ(northern->at("name"), json::value("Northern Academy"));
    EXPECT_GE(iso_to_ms(northern->at("gameTime").as_string()), iso_to_ms("1999-09-01T08:30:00Z"));
    EXPECT_LT(iso_to_ms(northern->at("gameTime").as_string()), iso_to_ms("1999-09-02T08:30:00Z"));
}

TEST_F(SchoolsApi, GameTimeIsLiveBetweenTwoGets) {
    const auto id = create_school_id(port(), "Живая школа");
    const auto first = iso_to_ms(find_school(port(), id).value().at("gameTime").as_string());
    // ×1 is five game minutes per real second: the time must move on.
    std::int64_t later = first;
    for (const auto until = std::chrono::steady_clock::now() + kWait; later == first && std::chrono::steady_clock::now() < until;) {
        std::this_thread::sleep_for(100ms);
        later = iso_to_ms(find_school(port(), id).value().at("gameTime").as_string());
    }
    EXPECT_GT(later, first) << "gameTime did not advance between two GETs of a running school";
}

// ---- GET /api/schools/random-name ----

std::string suggestion(std::uint16_t port, const std::string& query = "") {
    const auto body = get_object(port, "/api/schools/random-name" + query);
    const auto* name = body.if_contains("name");
    if (!name || !name->is_string()) {
        ADD_FAILURE() << "no name in " << json::serialize(body);
        return {};
    }
    return std::string(name->as_string());
}

TEST_F(SchoolsApi, RandomNamesAreRussianUnlessEnglishIsAsked) {
    for (int i = 0; i < 10; ++i) {
        const auto russian = suggestion(port());
        EXPECT_TRUE(has_cyrillic(russian)) << russian;
        EXPECT_LE(utf8_chars(russian), 40U) << russian;
        const auto also_russian = suggestion(port(), "?lang=de");
        EXPECT_TRUE(has_cyrillic(also_russian)) << also_russian;
        const auto explicit_russian = suggestion(port(), "?lang=ru");
        EXPECT_TRUE(has_cyrillic(explicit_russian)) << explicit_russian;
        const auto english = suggestion(port(), "?lang=en");
        // English names are in Latin script, not ASCII: the list has "Brontë".
        EXPECT_FALSE(has_cyrillic(english)) << english;
        EXPECT_FALSE(english.empty());
        EXPECT_TRUE(std::any_of(english.begin(), english.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }))
            << english;
        EXPECT_LE(english.size(), 40U) << english;
    }
}

TEST_F(SchoolsApi, RandomNamesAreNeverOnesAlreadyTaken) {
    std::set<std::string> taken;
    for (const char* query : {"", "", "", "?lang=en", "?lang=en", "?lang=en"}) {
        const auto name = suggestion(port(), query);
        if (taken.insert(name).second) create_school_id(port(), name);  // every suggestion is a valid name
    }
    for (int i = 0; i < 40; ++i) {
        for (const char* query : {"", "?lang=en"}) {
            const auto name = suggestion(port(), query);
            EXPECT_FALSE(taken.contains(name)) << "suggested a taken name: " << name;
        }
    }
}

// ---- GET /api/mods ----

TEST_F(SchoolsApi, ModsListCoreFirstAndRequired) {
    const auto body = get_object(port(), "/api/mods");
    const auto& mods = body.at("mods").as_array();
    ASSERT_EQ(mods.size(), 2U) << json::serialize(body);
    EXPECT_EQ(mods[0].at("id"), json::value("core"));
    EXPECT_EQ(mods[0].at("required"), json::value(true));
    EXPECT_EQ(mods[1].at("id"), json::value("annex"));
    EXPECT_EQ(mods[1].at("required"), json::value(false));
    for (const auto& mod : mods) EXPECT_TRUE(mod.at("title").is_string()) << mod;
}

// ---- GET /api/catalog ----

const json::object* find_type(const json::object& catalog, std::string_view id) {
    for (const auto& type : catalog.at("types").as_array()) {
        if (type.at("id") == json::value(id)) return &type.as_object();
    }
    return nullptr;
}

TEST_F(SchoolsApi, TheCatalogHasPlaceableTypesLabelledInTheAskedLanguage) {
    const auto ru = get_object(port(), "/api/catalog?lang=ru");
    const auto en = get_object(port(), "/api/catalog?lang=en");
    ASSERT_FALSE(ru.empty());
    ASSERT_FALSE(en.empty());
    EXPECT_EQ(ru.at("lang"), json::value("ru"));
    EXPECT_EQ(en.at("lang"), json::value("en"));
    EXPECT_EQ(ru.at("mods"), json::value(json::array{"core"}));
    ASSERT_EQ(ru.at("types").as_array().size(), en.at("types").as_array().size());
    for (const auto& value : en.at("types").as_array()) {
        const auto& type = value.as_object();
        for (const char* field : {"id", "kind", "label", "items", "positions"}) EXPECT_TRUE(type.contains(field)) << field;
        EXPECT_TRUE(is_ascii(type.at("label").as_string())) << type.at("label");
        const auto* russian = find_type(ru, type.at("id").as_string());
        ASSERT_TRUE(russian) << type.at("id");
        EXPECT_TRUE(has_cyrillic(russian->at("label").as_string())) << russian->at("label");
    }
    // Ordered by kind (territory, building, floor, room), then by id.
    const auto kind_rank = [](const json::value& type) {
        const std::string_view kind = type.at("kind").as_string();
        return kind == "territory" ? 0 : kind == "building" ? 1 : kind == "floor" ? 2 : kind == "room" ? 3 : 99;
    };
    const auto& types = en.at("types").as_array();
    for (std::size_t i = 0; i < types.size(); ++i) {
        EXPECT_LT(kind_rank(types[i]), 99) << types[i];
        if (i == 0) continue;
        const auto before = std::make_pair(kind_rank(types[i - 1]), std::string(types[i - 1].at("id").as_string()));
        const auto after = std::make_pair(kind_rank(types[i]), std::string(types[i].at("id").as_string()));
        EXPECT_LT(before, after) << "types out of order at " << i;
    }
    EXPECT_EQ(find_type(en, "territory.yard")->at("label"), json::value("School yard"));
    EXPECT_EQ(find_type(en, "building.main")->at("label"), json::value("Main building"));
    for (const char* abstract_id : {"room.base", "room.classroom", "floor.base", "territory.base", "building.base"}) {
        EXPECT_FALSE(find_type(en, abstract_id)) << abstract_id << " is abstract and not placeable";
    }
    // Items are flattened from the parents: a maths room inherits the classroom's 15 desks.
    const auto* math = find_type(en, "room.classroom.math");
    ASSERT_TRUE(math);
    const auto& items = math->at("items").as_array();
    EXPECT_TRUE(std::any_of(items.begin(), items.end(), [](const json::value& item) {
        return item.at("id") == json::value("desk") && item.at("count") == json::value(15);
    })) << json::serialize(items);
    const auto& default_map = ru.at("defaultMap").as_object();
    EXPECT_EQ(default_map.at("nodes").as_array().size(), 46U);
    EXPECT_FALSE(default_map.at("links").as_array().empty());
}

TEST_F(SchoolsApi, AnyLanguageButEnglishIsRussian) {
    const auto other = get_object(port(), "/api/catalog?lang=fr");
    EXPECT_EQ(other.at("lang"), json::value("ru"));
    EXPECT_TRUE(has_cyrillic(find_type(other, "territory.yard")->at("label").as_string()));
    const auto none = get_object(port(), "/api/catalog");
    EXPECT_EQ(none.at("lang"), json::value("ru"));
}

TEST_F(SchoolsApi, TheAnnexCatalogAddsItsTypesAndItsDefaultMapWins) {
    const auto core = get_object(port(), "/api/catalog?lang=en");
    const auto annex = get_object(port(), "/api/catalog?lang=en&mods=annex");
    ASSERT_FALSE(annex.empty());
    EXPECT_EQ(annex.at("mods"), json::value(json::array{"core", "annex"}));
    EXPECT_GT(annex.at("types").as_array().size(), core.at("types").as_array().size());
    EXPECT_EQ(find_type(annex, "building.main")->at("label"), json::value("Old building"));
    EXPECT_NE(annex.at("defaultMap"), core.at("defaultMap"));
    EXPECT_EQ(annex.at("defaultMap").at("nodes").as_array().size(), 64U);
    // "core" named as an extra is ignored, not an error.
    const auto explicit_core = get_object(port(), "/api/catalog?lang=en&mods=core,annex");
    EXPECT_EQ(explicit_core.at("mods"), json::value(json::array{"core", "annex"}));
}

TEST_F(SchoolsApi, AnUnknownExtraPackIsUnknownMod) {
    expect_problem(http_request(port(), "GET", "/api/catalog?lang=en&mods=nope"), 400, "unknown-mod");
    expect_problem(http_request(port(), "GET", "/api/catalog?mods=annex,nope"), 400, "unknown-mod");
    expect_problem(post(json::object{{"name", "X"}, {"modIds", json::array{"nope"}}}), 400, "unknown-mod");
    EXPECT_TRUE(list_schools(port()).empty());
}

// ---- POST /api/schools: what a school is created from ----

TEST_F(SchoolsApi, StartDateAndModsAreKept) {
    const auto school = create_school(port(), "Newton College", {{"startDate", "1999-09-01T08:30:00Z"}, {"modIds", json::array{"annex"}}});
    ASSERT_FALSE(school.empty());
    EXPECT_EQ(school.at("startDate"), json::value("1999-09-01T08:30:00Z"));
    EXPECT_EQ(school.at("modIds"), json::value(json::array{"annex"}));
    const auto game_time = iso_to_ms(school.at("gameTime").as_string());
    EXPECT_GE(game_time, iso_to_ms("1999-09-01T08:30:00Z"));
    EXPECT_LT(game_time, iso_to_ms("1999-09-01T09:30:00Z"));
}

TEST_F(SchoolsApi, AStartDateWithAnOffsetIsConvertedToUtc) {
    const auto school = create_school(port(), "Offset", {{"startDate", "2012-04-03T09:00:00+03:00"}});
    ASSERT_FALSE(school.empty());
    EXPECT_EQ(school.at("startDate"), json::value(kDefaultStartDate));
    const auto fraction = create_school(port(), "Fraction", {{"startDate", "2012-04-03T06:00:00.250Z"}});
    ASSERT_FALSE(fraction.empty());
    EXPECT_TRUE(is_iso_instant(fraction.at("startDate").as_string())) << "instants carry no fractional seconds";
    EXPECT_TRUE(is_iso_instant(fraction.at("gameTime").as_string()));
}

TEST_F(SchoolsApi, MapNullMeansTheDefaultMap) {
    const auto school = create_school(port(), "Null map", {{"map", nullptr}});
    EXPECT_FALSE(school.empty());
    const auto custom = create_school(port(), "Own map", {{"map", small_map()}});
    EXPECT_FALSE(custom.empty());
}

TEST_F(SchoolsApi, NamesUpToFortyCharactersAreAcceptedEvenCyrillic) {
    const auto forty_cyrillic = repeat("Ж", 40);
    ASSERT_EQ(forty_cyrillic.size(), 80U);
    const auto school = create_school(port(), forty_cyrillic);
    EXPECT_EQ(school.at("name"), json::value(forty_cyrillic)) << "names are saved as written";
    create_school_id(port(), repeat("a", 40));
    expect_problem(post(json::object{{"name", repeat("Ж", 41)}}), 400, "invalid-name", "41 Cyrillic characters");
    expect_problem(post(json::object{{"name", repeat("a", 41)}}), 400, "invalid-name", "41 ASCII characters");
}

TEST_F(SchoolsApi, BlankNamesAreInvalid) {
    for (const char* name : {"", " ", "   ", "\t", " \n \t "}) {
        expect_problem(post(json::object{{"name", name}}), 400, "invalid-name", std::string("name '") + name + "'");
    }
    EXPECT_TRUE(list_schools(port()).empty());
}

TEST_F(SchoolsApi, StartDatesMustBeInstantsIn1900To2999) {
    for (const char* date : {"1900-01-01T00:00:00Z", "2999-12-31T23:59:59Z"}) {
        const auto school = create_school(port(), std::string("Edge ") + date, {{"startDate", date}});
        EXPECT_EQ(school.at("startDate"), json::value(date));
    }
    for (const char* date : {"1899-12-31T23:59:59Z", "3000-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "tomorrow", "",
                             "2012-04-03", "2012-13-01T00:00:00Z", "2012-04-31T06:00:00Z", "2012-04-03T25:00:00Z",
                             "2012-04-03T06:00:00", "2012-04-03 06:00:00Z"}) {
        expect_problem(post(json::object{{"name", "Bad date"}, {"startDate", date}}), 400, "invalid-start-date",
                       std::string("startDate '") + date + "'");
    }
    EXPECT_EQ(list_schools(port()).size(), 2U);
}

TEST_F(SchoolsApi, BodiesOfTheWrongShapeAreInvalidBody) {
    const std::vector<std::pair<std::string, std::string>> cases{
        {"not json", "hello"},
        {"truncated", R"({"name": "A")"},
        {"an array", R"(["name", "A"])"},
        {"a string", R"("A")"},
        {"null", "null"},
        {"empty object: no name", "{}"},
        {"name a number", R"({"name": 5})"},
        {"name null", R"({"name": null})"},
        {"name an array", R"({"name": ["A"]})"},
        {"modIds a string", R"({"name": "A", "modIds": "annex"})"},
        {"modIds of numbers", R"({"name": "A", "modIds": [1]})"},
        {"modIds with null", R"({"name": "A", "modIds": ["annex", null]})"},
        {"startDate a number", R"({"name": "A", "startDate": 1333432800000})"},
    };
    for (const auto& [what, body] : cases) expect_problem(post_text(body), 400, "invalid-body", what);
    EXPECT_TRUE(list_schools(port()).empty());
}

TEST_F(SchoolsApi, OnlyJsonIsAccepted) {
    const std::string body = R"({"name": "Plain"})";
    expect_problem(post_json(port(), "/api/schools", body, "text/plain"), 415, "unsupported-media-type");
    expect_problem(post_json(port(), "/api/schools", body, "application/x-www-form-urlencoded"), 415, "unsupported-media-type");
    expect_problem(http_request(port(), "POST", "/api/schools", body), 415, "unsupported-media-type", "no Content-Type");
    EXPECT_TRUE(list_schools(port()).empty());
    const auto with_charset = post_json(port(), "/api/schools", body, "application/json; charset=utf-8");
    EXPECT_EQ(with_charset.status, 201U) << "a media type parameter is still JSON: " << with_charset.body;
}

TEST_F(SchoolsApi, BodiesOver64KiBAreTooLarge) {
    const std::string object = R"({"name": "Exactly 64 KiB"})";
    const auto at_limit = object + std::string(64 * 1024 - object.size(), ' ');  // whitespace is valid JSON
    ASSERT_EQ(at_limit.size(), 65536U);
    EXPECT_EQ(post_text(at_limit).status, 201U) << "64 KiB is the limit, not over it";
    const auto over = post_text(at_limit + " ");
    expect_problem(over, 413, "payload-too-large");
    const auto far_over = post_text(object + std::string(1024 * 1024, ' '));
    if (far_over.status != 0) expect_problem(far_over, 413, "payload-too-large", "1 MiB");  // may be cut off early
    EXPECT_EQ(list_schools(port()).size(), 1U);
    EXPECT_EQ(http_request(port(), "GET", "/health").status, 200U);
}

TEST_F(SchoolsApi, TheSeventhSchoolHitsTheLimitUntilOneIsDeleted) {
    std::vector<std::int32_t> ids;
    for (int i = 0; i < kMaxSchools; ++i) ids.push_back(create_school_id(port(), "School " + std::to_string(i)));
    expect_problem(post(json::object{{"name", "Seventh"}}), 409, "school-limit-reached");
    EXPECT_EQ(list_schools(port()).size(), 6U);
    EXPECT_EQ(http_request(port(), "DELETE", "/api/schools/" + std::to_string(ids[2])).status, 204U);
    const auto again = create_school_id(port(), "Seventh");
    EXPECT_FALSE(std::count(ids.begin(), ids.end(), again)) << "ids are not reused";
    expect_problem(post(json::object{{"name", "Eighth"}}), 409, "school-limit-reached");
}

// ---- POST /api/schools: maps ----

struct MapCase {
    std::string what;
    json::object map;
    std::string detail_mentions;  // the node (or id) the detail must name; empty when there is none
};

std::vector<MapCase> invalid_maps() {
    std::vector<MapCase> cases;
    const auto with_nodes = [](json::array nodes, json::array links) { return json::object{{"nodes", nodes}, {"links", links}}; };
    const auto base_nodes = small_map().at("nodes").as_array();
    const auto base_links = small_map().at("links").as_array();

    cases.push_back({"no yard",
                     with_nodes({node("main", "building.main"), node("floor-1", "floor.first", "main"), node("room-a", "room.lobby", "floor-1")}, {}),
                     ""});
    // The small map with one node more and, when given, a link to it.
    const auto plus = [&](json::object extra_node, std::optional<json::object> extra_link = std::nullopt) {
        auto nodes = base_nodes;
        nodes.push_back(std::move(extra_node));
        auto links = base_links;
        if (extra_link) links.push_back(std::move(*extra_link));
        return with_nodes(nodes, links);
    };
    cases.push_back({"two yards", plus(node("second-yard", "territory.yard")), "second-yard"});
    cases.push_back({"no rooms",
                     with_nodes({node("yard", "territory.yard"), node("main", "building.main", "yard"), node("floor-1", "floor.first", "main")}, {}),
                     ""});
    cases.push_back({"unknown def", plus(node("dungeon-1", "room.dungeon", "floor-1"), link("room-a", "dungeon-1")), "dungeon-1"});
    cases.push_back(
        {"abstract def", plus(node("abstract-room", "room.classroom", "floor-1"), link("room-a", "abstract-room")), "abstract-room"});
    cases.push_back({"duplicate id", plus(node("room-a", "room.cloakroom", "floor-1")), "room-a"});
    cases.push_back({"room whose parent is a building",
                     plus(node("misplaced-room", "room.cloakroom", "main"), link("room-a", "misplaced-room")), "misplaced-room"});
    cases.push_back({"parent that does not exist",
                     plus(node("orphan-room", "room.cloakroom", "ghost-floor"), link("room-a", "orphan-room")), "orphan-room"});
    auto ghost_links = base_links;
    ghost_links.push_back(link("room-a", "ghost-node"));
    cases.push_back({"link to an unknown node", with_nodes(base_nodes, ghost_links), "ghost-node"});
    cases.push_back({"room not reachable from the yard", plus(node("island-room", "room.cloakroom", "floor-1")), "island-room"});
    return cases;
}

TEST_F(SchoolsApi, InvalidMapsAreRefusedWithADetailNamingTheNode) {
    for (const auto& c : invalid_maps()) {
        const auto response = post(json::object{{"name", "Map test"}, {"map", c.map}});
        expect_problem(response, 400, "invalid-map", c.what);
        const auto detail = problem_detail(response);
        EXPECT_FALSE(detail.empty()) << c.what;
        if (!c.detail_mentions.empty()) {
            EXPECT_NE(detail.find(c.detail_mentions), std::string::npos) << c.what << ": detail '" << detail << "'";
        }
    }
    EXPECT_TRUE(list_schools(port()).empty());
}

TEST_F(SchoolsApi, AMapMayUseTheSelectedPacksTypesOnly) {
    auto map = small_map();
    map["nodes"].as_array().push_back(node("pool", "room.pool", "floor-1"));
    map["links"].as_array().push_back(link("room-a", "pool"));
    const auto annex_types = get_object(port(), "/api/catalog?lang=en&mods=annex");
    ASSERT_TRUE(find_type(annex_types, "room.pool")) << "the annex ships a pool";
    expect_problem(post(json::object{{"name", "Core only"}, {"map", map}}), 400, "invalid-map");
    create_school_id(port(), "With annex", {{"map", map}, {"modIds", json::array{"annex"}}});
}

// ---- DELETE /api/schools/{id} ----

TEST_F(SchoolsApi, DeleteRemovesTheSchoolOnce) {
    const auto keep = create_school_id(port(), "Keep");
    const auto drop = create_school_id(port(), "Drop");
    const auto path = "/api/schools/" + std::to_string(drop);
    const auto deleted = http_request(port(), "DELETE", path);
    EXPECT_EQ(deleted.status, 204U);
    EXPECT_TRUE(deleted.body.empty());
    EXPECT_FALSE(find_school(port(), drop));
    EXPECT_TRUE(find_school(port(), keep));
    expect_problem(http_request(port(), "DELETE", path), 404, "not-found", "second delete");
}

TEST_F(SchoolsApi, UnknownIdsAndRoutesAreProblems) {
    expect_problem(http_request(port(), "DELETE", "/api/schools/999"), 404, "not-found");
    expect_problem(http_request(port(), "GET", "/api/nope"), 404, "not-found");
    expect_problem(http_request(port(), "DELETE", "/api/schools/abc"), 400, "invalid-id");
    for (const char* id : {"-1", "0", "99999999999", "2147483648", "1.5", "1x"}) {
        const auto response = http_request(port(), "DELETE", std::string("/api/schools/") + id);
        EXPECT_TRUE(response.status == 400 || response.status == 404) << id << ": " << response.status;
        expect_client_problem(response, id);
    }
}

TEST_F(SchoolsApi, WrongMethodsAre405WithAllow) {
    const auto put = http_request(port(), "PUT", "/api/schools", R"({"name": "A"})", {{"Content-Type", "application/json"}});
    expect_problem(put, 405, "method-not-allowed", "PUT /api/schools");
    ASSERT_TRUE(put.headers.contains("allow"));
    EXPECT_NE(put.headers.at("allow").find("GET"), std::string::npos) << put.headers.at("allow");
    EXPECT_NE(put.headers.at("allow").find("POST"), std::string::npos) << put.headers.at("allow");
    const auto post_mods = post_json(port(), "/api/mods", std::string("{}"));
    expect_problem(post_mods, 405, "method-not-allowed", "POST /api/mods");
    ASSERT_TRUE(post_mods.headers.contains("allow"));
    EXPECT_NE(post_mods.headers.at("allow").find("GET"), std::string::npos);
    const auto delete_list = http_request(port(), "DELETE", "/api/schools");
    expect_problem(delete_list, 405, "method-not-allowed", "DELETE /api/schools");
    EXPECT_TRUE(list_schools(port()).empty());
}

}  // namespace
}  // namespace hschool::test::schools
