#pragma once
// /health and /metrics: what operators and load balancers ask.
#include <atomic>

#include "server/http_router.hpp"

namespace hschool::server {

class Metrics;

enum class Health { Starting, Serving, Draining };

void add_ops_routes(HttpRouter& router, const std::atomic<Health>& health, const Metrics& metrics);

}  // namespace hschool::server
