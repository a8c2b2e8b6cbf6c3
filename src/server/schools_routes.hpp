#pragma once
// The REST menu API of protocol v4: /api/schools, /api/mods, /api/catalog.
#include <string>
#include <vector>

#include "server/http_router.hpp"
#include "server/school_state.hpp"

namespace hschool::content {
class ContentLibrary;
}
namespace hschool::store {
class SchoolStore;
}

namespace hschool::server {

class GameLoop;

// Validation runs on the network thread; creating and deleting write the store synchronously
// (durable before the answer) and then hand the school to the loop thread.
void add_schools_routes(HttpRouter& router, GameLoop& loop, const content::ContentLibrary& library,
                        store::SchoolStore& store);

// Every stored school with its packs and map resolved; error is set when the store cannot be read.
std::vector<SchoolState> load_schools(store::SchoolStore& store, const content::ContentLibrary& library,
                                      std::string& error);

}  // namespace hschool::server
