#include "server/schools/limits.hpp"
#include "server/schools/schools_routes.hpp"

#include <boost/json.hpp>
#include <random>
#include <set>

#include "content/library.hpp"
#include "content/school_names.hpp"
#include "server/schools/school_request.hpp"
#include "server/schools/store_health.hpp"
#include "server/schools/schools_service.hpp"
#include "sim/calendar/iso8601.hpp"
#include "store/school_store.hpp"
#include "store/store_worker.hpp"
#include "util/log.hpp"

namespace hschool::server {

namespace json = boost::json;

namespace {

net::HttpResponse json_response(unsigned status, const json::value& body) {
    return net::HttpResponse{status, "application/json", json::serialize(body), {}};
}

net::HttpResponse from_problem(const content::Problem& p) {
    const char* title = p.code == "unknown-mod"       ? "Unknown mod"
                        : p.code == "invalid-catalog" ? "Invalid catalog"
                        : p.code == "invalid-map"     ? "Invalid map"
                                                      : "Invalid request";
    return net::problem(400, p.code, title, p.detail);
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

std::uint64_t fresh_seed() {
    static thread_local std::mt19937_64 rng{std::random_device{}()};
    return rng();
}

// How long a client should wait before trying a refused create or delete again.
constexpr const char* kStoreRetryAfterSeconds = "1";

net::HttpResponse store_unavailable(std::string_view detail) {
    auto response = net::problem(503, "store-unavailable", "Store unavailable", detail);
    response.headers.emplace_back("Retry-After", kStoreRetryAfterSeconds);
    return response;
}

net::HttpResponse shutting_down() { return store_unavailable("the server is shutting down; nothing was saved"); }

// The store worker did not take the job: its queue is full, or it has stopped.
net::HttpResponse refused(store::StoreWorker::Submitted why) {
    if (why == store::StoreWorker::Submitted::Stopped) return shutting_down();
    return store_unavailable("too many saves are waiting for the database; nothing was saved, try again shortly");
}

// A failed create or delete: counted and logged by the store health, answered 503 when the file is
// only busy (another process holds it) or out of reach, and 500 otherwise.
net::HttpResponse write_failed(StoreHealth& health, std::string_view operation, const store::StoreError& error,
                          std::string_view what) {
    health.record(operation, error);
    if (error.kind == store::StoreErrorKind::Busy) {
        return store_unavailable("the database is busy (another process holds it); " + std::string(what) +
                                 ", try again shortly");
    }
    if (error.kind == store::StoreErrorKind::Unavailable)
        return store_unavailable("the database cannot be reached; " + std::string(what) + ", try again shortly");
    return net::problem(500, "internal-error", "Internal error", std::string(what));
}

}  // namespace

void add_schools_routes(net::HttpRouter& router, OnSchoolsThread on_loop, const content::ContentLibrary& library,
                        store::SchoolStore& store, store::StoreWorker& worker, StoreHealth& store_health, net::Ownership access) {
    router.add("GET", "/api/schools", [on_loop](const net::HttpRequest&, const net::PathParams&, net::Respond respond) {
        on_loop([respond](SchoolsService& service) {
            json::array schools;
            for (const auto& [id, school] : service.schools()) schools.push_back(summary(school));
            respond(json_response(200, json::object{{"maxSchools", kMaxSchools},
                                                    {"defaultStartDate", iso(sim::kDefaultStartDateMs)},
                                                    {"gameMinutesPerRealSecond", sim::kGameMinutesPerRealSecond},
                                                    {"schools", std::move(schools)}}));
        });
    });

    router.add("GET", "/api/schools/random-name", [on_loop](const net::HttpRequest& request, const net::PathParams&, net::Respond respond) {
        const auto lang = content::lang_from_query(net::query_param(request.query, "lang"));
        on_loop([respond, lang](SchoolsService& service) {
            std::set<std::string> taken;
            for (const auto& [id, school] : service.schools()) taken.insert(school.name);
            respond(json_response(200, json::object{{"name", content::random_school_name(lang, taken, fresh_seed())}}));
        });
    });

    router.add("GET", "/api/mods", [&library](const net::HttpRequest& request, const net::PathParams&, net::Respond respond) {
        respond(json_response(200, content::mods_json(library.mods(), content::lang_from_query(net::query_param(request.query, "lang")))));
    });

    router.add("GET", "/api/catalog", [&library](const net::HttpRequest& request, const net::PathParams&, net::Respond respond) {
        const auto lang = content::lang_from_query(net::query_param(request.query, "lang"));
        const auto extras = split_mods(net::query_param(request.query, "mods"));
        if (extras.size() > kMaxModIds) return respond(invalid_body("mods lists too many packs"));
        auto packs = library.resolve(extras);
        if (!packs) return respond(from_problem(packs.error()));
        respond(json_response(200, packs->catalog_json(lang)));
    });

    router.add("POST", "/api/schools", [on_loop, &library, &store, &worker, &store_health, access](const net::HttpRequest& request, const net::PathParams&, net::Respond respond) {
        if (request.content_type != "application/json") {
            return respond(net::problem(415, "unsupported-media-type", "Unsupported media type",
                                   "send the school as application/json"));
        }
        boost::system::error_code ec;
        const json::value body = json::parse(request.body, ec);
        if (ec) return respond(invalid_body("the body is not valid JSON: " + ec.message()));
        auto read = read_create_request(body);
        if (auto* failure = std::get_if<net::HttpResponse>(&read)) return respond(std::move(*failure));
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

        // The token is shown once, in the 201; the store keeps only its hash.
        const std::string owner_token = access.owners ? net::new_token() : std::string();
        store::NewSchool row{create.name, create.start_date_ms, shared_packs->mod_ids(),
                             json::serialize(content::map_to_json(map)), create.start_date_ms, true,
                             sim::kDefaultSpeedIndex, owner_token.empty() ? std::string() : net::token_hash(owner_token)};
        SchoolState school;
        school.packs = std::move(shared_packs);
        school.map = std::move(map);
        auto save = [on_loop, &store, &store_health, respond, row = std::move(row), school = std::move(school), owner_token]() mutable {
            auto saved = store.insert_within_limit(row, kMaxSchools);
            if (!saved) {
                if (saved.error().kind == store::StoreErrorKind::LimitReached) {
                    return respond(net::problem(409, "school-limit-reached", "School limit reached",
                                           "at most " + std::to_string(kMaxSchools) + " schools can exist; delete one first"));
                }
                return respond(write_failed(store_health, "create", saved.error(), "the school was not saved"));
            }
            store_health.record("create", std::nullopt);
            school.id = saved->id;
            school.name = saved->name;
            school.start_date_ms = saved->start_date_ms;
            school.mod_ids = saved->mod_ids;
            school.clock = sim::make_school_clock(saved->start_date_ms);
            school.owner_hash = saved->owner_hash;
            logging::info("event=school_created id={} mods={}", school.id, school.mod_ids.size());
            // Creates and deletes run in order on this one thread and post their loop tasks in that
            // order, so a create racing a delete of the same id cannot leave a school in memory only.
            on_loop([respond, school = std::move(school), owner_token](SchoolsService& service) mutable {
                json::object created = details(school);
                if (!owner_token.empty()) created["ownerToken"] = owner_token;
                auto response = json_response(201, created);
                response.headers.emplace_back("Location", "/api/schools/" + std::to_string(school.id));
                service.add(std::move(school));
                respond(std::move(response));
            });
        };
        const auto queued = worker.submit({std::move(save), [respond] { respond(shutting_down()); }});
        if (queued != store::StoreWorker::Submitted::Queued) return respond(refused(queued));
        logging::info("event=school_create_queued");  // from here the store thread owes it an answer
    });

    router.add("DELETE", "/api/schools/{id}", [on_loop, &store, &worker, &store_health, access](const net::HttpRequest& request, const net::PathParams& params, net::Respond respond) {
        const auto id = parse_school_id(params.at(0));
        if (!id) return respond(net::problem(400, "invalid-id", "Invalid id", "a school id is a positive 32-bit integer"));
        const std::string credential = net::bearer_token(request.authorization);
        if (access.permission(credential, "") == net::Permission::Missing)
            return respond(net::permission_problem(net::Permission::Missing, "this school"));
        // The operator may delete any school; anyone else is checked against the row's owner on the store thread.
        const bool check_owner = access.owners && !access.is_operator(credential);
        auto remove = [on_loop, &store, &store_health, access, respond, id = *id, credential, check_owner] {
            if (check_owner) {
                auto owner = store.owner_hash(id);
                if (!owner) return respond(write_failed(store_health, "delete", owner.error(), "the school was not deleted"));
                if (!*owner) return respond(net::problem(404, "not-found", "Not found", "no school with id " + std::to_string(id)));
                if (const auto permission = access.permission(credential, **owner); permission != net::Permission::Granted)
                    return respond(net::permission_problem(permission, "this school"));
            }
            auto removed = store.remove(id);
            if (!removed) return respond(write_failed(store_health, "delete", removed.error(), "the school was not deleted"));
            store_health.record("delete", std::nullopt);
            if (!*removed) return respond(net::problem(404, "not-found", "Not found", "no school with id " + std::to_string(id)));
            logging::info("event=school_deleted id={}", id);
            on_loop([respond, id](SchoolsService& service) {
                service.remove(id);
                respond(net::HttpResponse{204, "", "", {}});
            });
        };
        const auto queued = worker.submit({std::move(remove), [respond] { respond(shutting_down()); }});
        if (queued != store::StoreWorker::Submitted::Queued) respond(refused(queued));
    });
}

SchoolState school_from_record(const store::SchoolRecord& row, const content::ContentLibrary& library) {
    SchoolState school;
    school.id = row.id;
    school.name = row.name;
    school.start_date_ms = row.start_date_ms;
    school.mod_ids = row.mod_ids;
    school.clock = sim::SchoolClock{row.game_time_ms, row.running, row.speed_index, 0};
    school.owner_hash = row.owner_hash;
    auto packs = library.resolve(extras_of(row.mod_ids));
    if (packs) {
        auto shared_packs = std::make_shared<const content::ResolvedPacks>(std::move(packs).value());
        auto map = shared_packs->validate_map_text(row.map_json);
        if (map) {
            school.map = std::move(map).value();
            school.packs = std::move(shared_packs);
        } else {
            logging::warn("event=school_map_unreadable id={} detail=\"{}\"", row.id, map.error().detail);
        }
    } else {
        // The school keeps running; its map shows empty until its packs load again.
        logging::warn("event=school_packs_unavailable id={} detail=\"{}\"", row.id, packs.error().detail);
    }
    return school;
}

std::vector<SchoolState> load_schools(store::SchoolStore& store, const content::ContentLibrary& library, std::string& error) {
    std::vector<SchoolState> schools;
    auto rows = store.load_all();
    if (!rows) {
        error = rows.error().message;
        return schools;
    }
    for (const auto& row : *rows) schools.push_back(school_from_record(row, library));
    return schools;
}

}  // namespace hschool::server
