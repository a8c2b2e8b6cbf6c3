#pragma once
// The REST menu API of protocol v4: /api/schools, /api/mods, /api/catalog.
#include <string>
#include <vector>

#include "net/http_router.hpp"
#include "server/school_state.hpp"
#include "server/net_names.hpp"

namespace hschool::content {
class ContentLibrary;
}
namespace hschool::store {
class SchoolStore;
class StoreWorker;
}  // namespace hschool::store

namespace hschool::server {

class AccessPolicy;
class GameLoop;
class StoreHealth;

// Validation runs on the network thread; creating and deleting run on the store worker (durable
// before the answer), which then hands the change to the loop thread, and the loop answers.
// A busy database or a full store queue answers 503 problem+json "store-unavailable".
// In owners mode a create returns the school's ownerToken once and a delete needs it (or the operator's).
void add_schools_routes(HttpRouter& router, GameLoop& loop, const content::ContentLibrary& library,
                        store::SchoolStore& store, store::StoreWorker& worker, StoreHealth& store_health,
                        const AccessPolicy& access);

// Every stored school with its packs and map resolved; error is set when the store cannot be read.
std::vector<SchoolState> load_schools(store::SchoolStore& store, const content::ContentLibrary& library,
                                      std::string& error);

}  // namespace hschool::server
