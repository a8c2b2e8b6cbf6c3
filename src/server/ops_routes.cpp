#include "server/ops_routes.hpp"

#include <boost/json.hpp>

#include "server/metrics.hpp"
#include "server/schools/store_health.hpp"

namespace hschool::server {

namespace {

net::HttpResponse serving(const HealthSources& sources) {
    if (const auto failure = sources.store ? sources.store->failure() : std::nullopt) {
        // Writes are failing: load balancers should stop sending players here until one succeeds.
        const boost::json::object body{{"status", "store-error"}, {"reason", net::escape_invalid_utf8(*failure)}};
        return {503, "application/json", boost::json::serialize(body), {}};
    }
    boost::json::object body{{"status", "serving"}, {"access", sources.access}};
    if (std::string_view(sources.llm) != "none") body["llm"] = sources.llm;  // a prompt seat asks this transport
    if (!sources.serving_files) body["webRoot"] = "none";
    return {200, "application/json", boost::json::serialize(body), {}};
}

}  // namespace

void add_ops_routes(net::HttpRouter& router, const std::atomic<Health>& health, const Metrics& metrics, HealthSources sources) {
    router.add("GET", "/health", [&health, sources](const net::HttpRequest&, const net::PathParams&, net::Respond respond) {
        switch (health.load()) {
            case Health::Serving: return respond(serving(sources));
            case Health::Starting: return respond({503, "application/json", R"({"status":"starting"})", {}});
            case Health::Draining: return respond({503, "application/json", R"({"status":"draining"})", {}});
        }
    });
    router.add("GET", "/metrics", [&metrics](const net::HttpRequest&, const net::PathParams&, net::Respond respond) {
        respond({200, "text/plain; version=0.0.4; charset=utf-8", metrics.render(), {}});
    });
}

}  // namespace hschool::server
