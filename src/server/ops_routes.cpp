#include "server/ops_routes.hpp"

#include "server/metrics.hpp"

namespace hschool::server {

void add_ops_routes(HttpRouter& router, const std::atomic<Health>& health, const Metrics& metrics) {
    router.add("GET", "/health", [&health](const HttpRequest&, const PathParams&, Respond respond) {
        switch (health.load()) {
            case Health::Serving: return respond({200, "application/json", R"({"status":"serving"})", {}});
            case Health::Starting: return respond({503, "application/json", R"({"status":"starting"})", {}});
            case Health::Draining: return respond({503, "application/json", R"({"status":"draining"})", {}});
        }
    });
    router.add("GET", "/metrics", [&metrics](const HttpRequest&, const PathParams&, Respond respond) {
        respond({200, "text/plain; version=0.0.4; charset=utf-8", metrics.render(), {}});
    });
}

}  // namespace hschool::server
