#include "server/schools_routes.hpp"

#include <spdlog/spdlog.h>

#include <boost/json.hpp>
#include <charconv>
#include <random>
#include <set>
#include <utf8cpp/utf8.h>

#include "content/library.hpp"
#include "content/school_names.hpp"
#include "server/game_loop.hpp"
#include "server/world.hpp"
#include "sim/calendar/iso8601.hpp"
#include "store/school_store.hpp"

namespace hschool::server {

namespace json = boost::json;

namespace {

inline constexpr std::size_t kMaxModIds = 32;  // far more than there are packs; keeps hostile lists short

HttpResponse json_response(unsigned status, const json::value& body) {
    return HttpResponse{status, "application/json", json::serialize(body), {}};
}

HttpResponse invalid_body(std::string_view detail) { return problem(400, "invalid-body", "Invalid request body", detail); }

HttpResponse from_problem(const content::Problem& p) {
    const char* title = p.code == "unknown-mod"       ? "Unknown mod"
                        : p.code == "invalid-catalog" ? "Invalid catalog"
                        : p.code == "invalid-map"     ? "Invalid map"
                                                      : "Invalid request";
    return problem(400, p.code, title, p.detail);
}

std::string iso(std::int64_t ms) { return sim::format_iso8601(ms).value_or(""); }

std::vector<std::string> extras_of(const std::vector<std::string>& mod_ids) {
    std::vector<std::string> extras;
    for (const auto& id : mod_ids)
        if (id != "core") extras.push_back(id);
    return extras;
}

json::object summary(const SchoolState& school) {
    return {{"id", school.id},
            {"name", school.name},
            {"gameTime", iso(school.clock.game_time_ms)},
            {"running", school.clock.running},
            {"speedIndex", school.clock.speed_index}};
}

json::object details(const SchoolState& school) {
    json::object body = summary(school);
    body["startDate"] = iso(school.start_date_ms);
    json::array mods;
    for (const auto& id : extras_of(school.mod_ids)) mods.emplace_back(id);
    body["modIds"] = std::move(mods);
    return body;
}

// "mods=a,b" → ["a","b"]; blanks dropped.
std::vector<std::string> split_mods(std::string_view list) {
    std::vector<std::string> out;
    while (!list.empty()) {
        const auto comma = list.find(',');
        std::string_view item = list.substr(0, comma);
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
        if (!item.empty()) out.emplace_back(item);
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
    }
    return out;
}

// A blank name, one with control characters or one over the limit; nothing when it is fine.
std::optional<std::string> name_problem(const std::string& name) {
    if (name.find_first_not_of(" \t\r\n\v\f") == std::string::npos) return "name must not be blank";
    const auto characters = static_cast<std::size_t>(utf8::distance(name.begin(), name.end()));
    if (characters > content::kMaxSchoolNameChars) {
        return "name has " + std::to_string(characters) + " characters; at most " +
               std::to_string(content::kMaxSchoolNameChars) + " are allowed";
    }
    for (unsigned char c : name)
        if (c < 0x20 || c == 0x7F) return "name must not contain control characters";
    return std::nullopt;
}

// A positive i32 written in plain decimal digits.
std::optional<std::int32_t> parse_school_id(std::string_view text) {
    if (text.empty() || text.size() > 10 || text.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
    std::int64_t value = 0;
    std::from_chars(text.data(), text.data() + text.size(), value);
    if (value <= 0 || value > std::numeric_limits<std::int32_t>::max()) return std::nullopt;
    return static_cast<std::int32_t>(value);
}

// Everything a valid POST /api/schools body says, checked in the order a player would fix it.
struct CreateRequest {
    std::string name;
    std::int64_t start_date_ms = sim::kDefaultStartDateMs;
    std::vector<std::string> extra_mods;
    const json::value* map = nullptr;  // into the parsed body
};

std::variant<CreateRequest, HttpResponse> read_create_request(const json::value& body) {
    const auto* object = body.if_object();
    if (!object) return invalid_body("the body must be a JSON object");
    CreateRequest request;

    const auto* name = object->if_contains("name");
    if (!name || name->is_null()) return invalid_body("name is required");
    if (!name->is_string()) return invalid_body("name must be a string");
    request.name = std::string(name->as_string());
    if (auto why = name_problem(request.name)) return problem(400, "invalid-name", "Invalid name", *why);

    if (const auto* start = object->if_contains("startDate"); start && !start->is_null()) {
        if (!start->is_string()) return invalid_body("startDate must be a string");
        const auto parsed = sim::parse_iso8601(start->as_string());
        if (!parsed) {
            return problem(400, "invalid-start-date", "Invalid start date",
                           "startDate must be an ISO-8601 instant such as 2012-04-03T06:00:00Z");
        }
        if (!sim::is_valid_start_date(*parsed)) {
            return problem(400, "invalid-start-date", "Invalid start date", "startDate must fall within the years 1900-2999");
        }
        request.start_date_ms = *parsed;
    }

    if (const auto* mods = object->if_contains("modIds"); mods && !mods->is_null()) {
        const auto* list = mods->if_array();
        if (!list) return invalid_body("modIds must be an array of pack ids");
        if (list->size() > kMaxModIds) return invalid_body("modIds lists too many packs");
        for (const auto& id : *list) {
            if (!id.is_string()) return invalid_body("modIds must contain only strings");
            request.extra_mods.emplace_back(id.as_string());
        }
    }

    if (const auto* map = object->if_contains("map"); map && !map->is_null()) request.map = map;
    return request;
}

std::uint64_t fresh_seed() {
    static thread_local std::mt19937_64 rng{std::random_device{}()};
    return rng();
}

}  // namespace

void add_schools_routes(HttpRouter& router, GameLoop& loop, const content::ContentLibrary& library,
                        store::SchoolStore& store) {
    router.add("GET", "/api/schools", [&loop](const HttpRequest&, const PathParams&, Respond respond) {
        loop.post(cmd::Task{[respond](World& world) {
            json::array schools;
            for (const auto& [id, school] : world.schools.schools()) schools.push_back(summary(school));
            respond(json_response(200, json::object{{"maxSchools", kMaxSchools},
                                                    {"defaultStartDate", iso(sim::kDefaultStartDateMs)},
                                                    {"gameMinutesPerRealSecond", sim::kGameMinutesPerRealSecond},
                                                    {"schools", std::move(schools)}}));
        }});
    });

    router.add("GET", "/api/schools/random-name", [&loop](const HttpRequest& request, const PathParams&, Respond respond) {
        const auto lang = content::lang_from_query(query_param(request.query, "lang"));
        loop.post(cmd::Task{[respond, lang](World& world) {
            std::set<std::string> taken;
            for (const auto& [id, school] : world.schools.schools()) taken.insert(school.name);
            respond(json_response(200, json::object{{"name", content::random_school_name(lang, taken, fresh_seed())}}));
        }});
    });

    router.add("GET", "/api/mods", [&library](const HttpRequest& request, const PathParams&, Respond respond) {
        respond(json_response(200, content::mods_json(library.mods(), content::lang_from_query(query_param(request.query, "lang")))));
    });

    router.add("GET", "/api/catalog", [&library](const HttpRequest& request, const PathParams&, Respond respond) {
        const auto lang = content::lang_from_query(query_param(request.query, "lang"));
        const auto extras = split_mods(query_param(request.query, "mods"));
        if (extras.size() > kMaxModIds) return respond(invalid_body("mods lists too many packs"));
        auto packs = library.resolve(extras);
        if (!packs) return respond(from_problem(packs.error()));
        respond(json_response(200, packs->catalog_json(lang)));
    });

    router.add("POST", "/api/schools", [&loop, &library, &store](const HttpRequest& request, const PathParams&, Respond respond) {
        if (request.content_type != "application/json") {
            return respond(problem(415, "unsupported-media-type", "Unsupported media type",
                                   "send the school as application/json"));
        }
        boost::system::error_code ec;
        const json::value body = json::parse(request.body, ec);
        if (ec) return respond(invalid_body("the body is not valid JSON: " + ec.message()));
        auto read = read_create_request(body);
        if (auto* failure = std::get_if<HttpResponse>(&read)) return respond(std::move(*failure));
        auto& create = std::get<CreateRequest>(read);

        auto packs = library.resolve(create.extra_mods);
        if (!packs) return respond(from_problem(packs.error()));
        auto shared_packs = std::make_shared<const content::ResolvedPacks>(std::move(packs).value());
        content::SchoolMap map = shared_packs->default_map();
        if (create.map) {
            auto validated = shared_packs->validate_map(*create.map);
            if (!validated) return respond(from_problem(validated.error()));
            map = std::move(validated).value();
        }

        store::NewSchool row{create.name, create.start_date_ms, shared_packs->mod_ids(),
                             json::serialize(content::map_to_json(map)), create.start_date_ms, true,
                             sim::kDefaultSpeedIndex};
        auto saved = store.insert_within_limit(row, kMaxSchools);
        if (!saved) {
            if (saved.error().kind == store::StoreErrorKind::LimitReached) {
                return respond(problem(409, "school-limit-reached", "School limit reached",
                                       "at most " + std::to_string(kMaxSchools) + " schools can exist; delete one first"));
            }
            spdlog::error("event=store_insert_failed error=\"{}\"", saved.error().message);
            return respond(problem(500, "internal-error", "Internal error", "the school could not be saved"));
        }
        SchoolState school;
        school.id = saved->id;
        school.name = saved->name;
        school.start_date_ms = saved->start_date_ms;
        school.mod_ids = saved->mod_ids;
        school.packs = std::move(shared_packs);
        school.map = std::move(map);
        school.clock = sim::make_school_clock(saved->start_date_ms);
        spdlog::info("event=school_created id={} mods={}", school.id, school.mod_ids.size());
        loop.post(cmd::Task{[respond, school = std::move(school)](World& world) mutable {
            auto response = json_response(201, details(school));
            response.headers.emplace_back("Location", "/api/schools/" + std::to_string(school.id));
            world.schools.add(std::move(school));
            respond(std::move(response));
        }});
    });

    router.add("DELETE", "/api/schools/{id}", [&loop, &store](const HttpRequest&, const PathParams& params, Respond respond) {
        const auto id = parse_school_id(params.at(0));
        if (!id) return respond(problem(400, "invalid-id", "Invalid id", "a school id is a positive 32-bit integer"));
        auto removed = store.remove(*id);
        if (!removed) {
            spdlog::error("event=store_remove_failed id={} error=\"{}\"", *id, removed.error().message);
            return respond(problem(500, "internal-error", "Internal error", "the school could not be deleted"));
        }
        if (!*removed) return respond(problem(404, "not-found", "Not found", "no school with id " + std::to_string(*id)));
        spdlog::info("event=school_deleted id={}", *id);
        loop.post(cmd::Task{[respond, id = *id](World& world) {
            world.schools.remove(id);
            respond(HttpResponse{204, "", "", {}});
        }});
    });
}

std::vector<SchoolState> load_schools(store::SchoolStore& store, const content::ContentLibrary& library, std::string& error) {
    std::vector<SchoolState> schools;
    auto rows = store.load_all();
    if (!rows) {
        error = rows.error().message;
        return schools;
    }
    for (auto& row : *rows) {
        SchoolState school;
        school.id = row.id;
        school.name = row.name;
        school.start_date_ms = row.start_date_ms;
        school.mod_ids = row.mod_ids;
        school.clock = sim::SchoolClock{row.game_time_ms, row.running, row.speed_index, 0};
        auto packs = library.resolve(extras_of(row.mod_ids));
        if (packs) {
            auto shared_packs = std::make_shared<const content::ResolvedPacks>(std::move(packs).value());
            auto map = shared_packs->validate_map_text(row.map_json);
            if (map) {
                school.map = std::move(map).value();
                school.packs = std::move(shared_packs);
            } else {
                spdlog::warn("event=school_map_unreadable id={} detail=\"{}\"", row.id, map.error().detail);
            }
        } else {
            // The school keeps running; its map shows empty until its packs load again.
            spdlog::warn("event=school_packs_unavailable id={} detail=\"{}\"", row.id, packs.error().detail);
        }
        schools.push_back(std::move(school));
    }
    return schools;
}

}  // namespace hschool::server
