#include "server/hns/web/match_routes.hpp"

#include <boost/json.hpp>

#include "net/credentials.hpp"
#include "server/hns/hub/hub.hpp"
#include "net/http_router.hpp"
#include "net/origin_policy.hpp"

namespace hschool::server {

namespace json = boost::json;

namespace {

net::HttpResponse json_text(unsigned status, std::string body) { return net::HttpResponse{status, "application/json", std::move(body), {}}; }

net::HttpResponse plain(unsigned status, std::string body) {
    return net::HttpResponse{status, "text/plain; charset=utf-8", std::move(body), {{"Cache-Control", "no-cache"}}};
}

// The controls' CORS headers: any origin in a league pod (the reference's admin panel calls them
// from elsewhere; only the runner reaches the pod), else only pages we would let write anyway.
void add_cors(net::HttpResponse& response, const net::HttpRequest& request, const HnsRouteOptions& options) {
    std::string allowed;
    if (options.dropin) {
        allowed = "*";
    } else if (!request.origin.empty() && net::origin_allowed(request.origin, request.host, options.allowed_origins)) {
        allowed = request.origin;
        response.headers.emplace_back("Vary", "Origin");
    }
    if (allowed.empty()) return;
    response.headers.emplace_back("Access-Control-Allow-Origin", allowed);
    response.headers.emplace_back("Access-Control-Allow-Methods", "POST, OPTIONS");
    response.headers.emplace_back("Access-Control-Allow-Headers", options.dropin ? "Content-Type" : "Content-Type, Authorization");
}

// The created match's summary with its owner token, which is never shown again.
std::string with_owner_token(const std::string& view_json, const std::string& token) {
    if (token.empty()) return view_json;
    boost::system::error_code ec;
    auto value = json::parse(view_json, ec);
    if (ec || !value.is_object()) return view_json;
    value.as_object()["ownerToken"] = token;
    return json::serialize(value);
}

std::string list_json(const std::vector<hns::MatchView>& views) {
    std::string body = "{\"matches\":[";
    for (std::size_t i = 0; i < views.size(); ++i) body += (i ? "," : "") + hns::match_view_json(views[i], false);
    return body + "]}";
}

void add_control(net::HttpRouter& router, hns::HnsHub& hub, const char* path, hns::ControlRoute route, const HnsRouteOptions& options) {
    for (const char* method : {"POST", "OPTIONS"}) {
        router.add(method, path, [&hub, route, method, options](const net::HttpRequest& request, const net::PathParams&, net::Respond respond) {
            const auto decision = hub.controls().control(route, method, request.query, net::bearer_token(request.authorization));
            net::HttpResponse response = decision.refused ? net::permission_problem(*decision.refused, "this match")
                                                     : plain(static_cast<unsigned>(decision.status), decision.body);
            if (decision.retry_after_seconds > 0) response.headers.emplace_back("Retry-After", std::to_string(decision.retry_after_seconds));
            add_cors(response, request, options);
            respond(std::move(response));
        });
    }
}

}  // namespace

net::HttpResponse hub_error_response(const hns::HubError& e) {
    const char* title = e.status == 401   ? "Unauthorized"
                        : e.status == 403 ? "Forbidden"
                        : e.status == 429 ? "Too many requests"
                        : e.status == 404 ? "Not found"
                        : e.status == 409 ? "Conflict"
                        : e.status == 503 ? "Service unavailable"
                                          : "Invalid request";
    net::HttpResponse response = net::problem(e.status, e.code, title, e.detail);
    if (e.status == 401) response.headers.emplace_back("WWW-Authenticate", "Bearer");
    if (e.retry_after_seconds > 0) response.headers.emplace_back("Retry-After", std::to_string(e.retry_after_seconds));
    return response;
}

void add_hns_routes(net::HttpRouter& router, hns::HnsHub& hub, HnsRouteOptions options) {
    router.add("GET", "/healthz", [](const net::HttpRequest&, const net::PathParams&, net::Respond respond) { respond(plain(200, "healthy")); });
    add_control(router, hub, "/control/restart", hns::ControlRoute::Restart, options);
    add_control(router, hub, "/control/kick", hns::ControlRoute::Kick, options);
    const bool owners = options.owners;

    router.add("GET", "/api/hns/variants", [](const net::HttpRequest&, const net::PathParams&, net::Respond respond) {
        json::array names;
        for (const auto& name : hns::variant_names()) names.emplace_back(name);
        respond(json_text(200, json::serialize(json::object{{"variants", std::move(names)}})));
    });
    router.add("GET", "/api/hns/matches", [&hub](const net::HttpRequest&, const net::PathParams&, net::Respond respond) {
        respond(json_text(200, list_json(hub.catalog().list())));
    });
    router.add("POST", "/api/hns/matches", [&hub, owners](const net::HttpRequest& request, const net::PathParams&, net::Respond respond) {
        // Even an empty body: a cross-site form or text/plain "simple" request must not make matches.
        if (request.content_type != "application/json")
            return respond(net::problem(415, "unsupported-media-type", "Unsupported media type", "send the body as application/json"));
        auto parsed = hns::parse_create_request(request.body);
        if (auto* e = std::get_if<hns::HubError>(&parsed)) return respond(hub_error_response(*e));
        const std::string owner_token = owners ? net::new_token() : std::string();
        hub.maker().create(std::get<hns::CreateRequest>(std::move(parsed)), owner_token.empty() ? std::string() : net::token_hash(owner_token),
                   request.remote, [respond, owner_token](std::variant<hns::MatchView, hns::HubError> created) {
                       if (auto* e = std::get_if<hns::HubError>(&created)) return respond(hub_error_response(*e));
                       const auto& view = std::get<hns::MatchView>(created);
                       net::HttpResponse response = json_text(201, with_owner_token(hns::match_view_json(view, true), owner_token));
                       response.headers.emplace_back("Location", "/api/hns/matches/" + view.id);
                       respond(std::move(response));
                   });
    });
    router.add("GET", "/api/hns/matches/{id}", [&hub](const net::HttpRequest&, const net::PathParams& params, net::Respond respond) {
        auto view = hub.catalog().get(params[0]);
        if (!view) return respond(net::problem(404, "not-found", "Not found", "no match " + params[0]));
        respond(json_text(200, hns::match_view_json(*view, true)));
    });
    router.add("GET", "/api/hns/matches/{id}/replay", [&hub](const net::HttpRequest&, const net::PathParams& params, net::Respond respond) {
        // Streamed from the file: a 64 MiB replay is never copied on a network thread.
        auto file = hub.catalog().replay_file(params[0]);
        if (auto* e = std::get_if<hns::HubError>(&file)) return respond(hub_error_response(*e));
        const std::string disposition = "attachment; filename=\"" + params[0] + ".cowldhns\"";
        if (auto& path = std::get<std::string>(file); !path.empty()) {
            net::HttpResponse response{200, "application/octet-stream", "", {}, std::move(path)};
            response.headers.emplace_back("Content-Disposition", disposition);
            return respond(std::move(response));
        }
        // In a shared database the replay is a row's bytes: read off the network thread.
        hub.catalog().replay_bytes(params[0], [respond, disposition](std::variant<std::string, hns::HubError> bytes) {
            if (auto* e = std::get_if<hns::HubError>(&bytes)) return respond(hub_error_response(*e));
            net::HttpResponse response{200, "application/octet-stream", std::get<std::string>(std::move(bytes)), {}};
            response.headers.emplace_back("Content-Disposition", disposition);
            respond(std::move(response));
        });
    });
    router.add("DELETE", "/api/hns/matches/{id}", [&hub](const net::HttpRequest& request, const net::PathParams& params, net::Respond respond) {
        if (auto error = hub.controls().remove(params[0], net::bearer_token(request.authorization))) return respond(hub_error_response(*error));
        respond(net::HttpResponse{204, "", "", {}});
    });
}

}  // namespace hschool::server
