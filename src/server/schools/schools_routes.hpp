#pragma once
// The REST menu API of protocol v4: /api/schools, /api/mods, /api/catalog.
#include <string>
#include <vector>

#include <functional>

#include "net/credentials.hpp"
#include "net/http_router.hpp"
#include "server/schools/school_state.hpp"
#include "store/school_record.hpp"

namespace hschool::content {
class ContentLibrary;
}
namespace hschool::store {
class SchoolStore;
class StoreWorker;
}  // namespace hschool::store

namespace hschool::server {

class SchoolsService;
class StoreHealth;

// Runs work on the thread that owns the schools (the loop), always queued: each answer is given there.
using OnSchoolsThread = std::function<void(std::function<void(SchoolsService&)>)>;

// Validation runs on the network thread; creating and deleting run on the store worker (durable
// before the answer), which then hands the change to the loop thread, and the loop answers.
// A busy database or a full store queue answers 503 problem+json "store-unavailable".
// In owners mode a create returns the school's ownerToken once and a delete needs it (or the operator's).
void add_schools_routes(net::HttpRouter& router, OnSchoolsThread on_loop, const content::ContentLibrary& library,
                        store::SchoolStore& store, store::StoreWorker& worker, StoreHealth& store_health, net::Ownership access);

// One stored school with its packs and map resolved (an unloadable pack leaves the map empty).
SchoolState school_from_record(const store::SchoolRecord& row, const content::ContentLibrary& library);

// Every stored school with its packs and map resolved; error is set when the store cannot be read.
std::vector<SchoolState> load_schools(store::SchoolStore& store, const content::ContentLibrary& library,
                                      std::string& error);

}  // namespace hschool::server
