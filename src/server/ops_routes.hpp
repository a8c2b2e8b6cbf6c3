#pragma once
// /health and /metrics: what operators and load balancers ask.
#include <atomic>

#include "net/http_router.hpp"

namespace hschool::server {

class Metrics;
class StoreHealth;

enum class Health { Starting, Serving, Draining };

// What else /health reports while serving.
struct HealthSources {
    const StoreHealth* store = nullptr;  // a failing latest write makes /health 503 "store-error"
    bool serving_files = true;           // false: no usable web root, every static path is 404
    const char* access = "open";         // the access mode, so clients (and operators) can see it
    const char* llm = "none";            // prompt seats' model transport (issue 21); shown unless none
};

void add_ops_routes(net::HttpRouter& router, const std::atomic<Health>& health, const Metrics& metrics,
                    HealthSources sources = {});

}  // namespace hschool::server
