#include "server/hns/web/match_routes.hpp"

#include <boost/json.hpp>

#include "net/credentials.hpp"
#include "net/origin_policy.hpp"
#include "server/hns/hub/hub.hpp"
#include "server/hns/web/responses.hpp"

namespace hschool::server::hns {

namespace json = boost::json;

namespace {

// The controls' CORS headers: any origin in a league pod (the reference's admin panel calls them
// from elsewhere; only the runner reaches the pod), else only pages we would let write anyway.
void add_cors(net::HttpResponse& response, const net::HttpRequest& request, const MatchRouteOptions& options) {
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

std::string list_json(const std::vector<MatchView>& views) {
    std::string body = "{\"matches\":[";
    for (std::size_t i = 0; i < views.size(); ++i) body += (i ? "," : "") + match_view_json(views[i], false);
    return body + "]}";
}

void add_control(net::HttpRouter& router, HnsHub& hub, const char* path, ControlRoute route, const MatchRouteOptions& options) {
    for (const char* method : {"POST", "OPTIONS"}) {
        router.add(method, path, [&hub, route, method, options](const net::HttpRequest& request, const net::PathParams&, net::Respond respond) {
            const auto decision = hub.controls().control(route, method, request.query, net::bearer_token(request.authorization));
            net::HttpResponse response = decision.refused ? net::permission_problem(*decision.refused, "this match")
                                                     : plain_response(static_cast<unsigned>(decision.status), decision.body);
            if (decision.retry_after_seconds > 0) response.headers.emplace_back("Retry-After", std::to_string(decision.retry_after_seconds));
            add_cors(response, request, options);
            respond(std::move(response));
        });
    }
}

}  // namespace


void add_match_routes(net::HttpRouter& router, HnsHub& hub, MatchRouteOptions options) {
    router.add("GET", "/healthz", [](const net::HttpRequest&, const net::PathParams&, net::Respond respond) { respond(plain_response(200, "healthy")); });
    add_control(router, hub, "/control/restart", ControlRoute::Restart, options);
    add_control(router, hub, "/control/kick", ControlRoute::Kick, options);
    const bool owners = options.owners;

    router.add("GET", "/api/hns/variants", [](const net::HttpRequest&, const net::PathParams&, net::Respond respond) {
        json::array names;
        for (const auto& name : variant_names()) names.emplace_back(name);
        respond(json_response(200, json::serialize(json::object{{"variants", std::move(names)}})));
    });
    router.add("GET", "/api/hns/matches", [&hub](const net::HttpRequest&, const net::PathParams&, net::Respond respond) {
        respond(json_response(200, list_json(hub.catalog().list())));
    });
    router.add("POST", "/api/hns/matches", [&hub, owners](const net::HttpRequest& request, const net::PathParams&, net::Respond respond) {
        if (auto refused = refuse_unless_json(request)) return respond(std::move(*refused));
        auto parsed = parse_create_request(request.body);
        if (auto* e = std::get_if<HubError>(&parsed)) return respond(problem_response(*e));
        NewOwner owner = new_owner(owners);
        hub.maker().create(std::get<CreateRequest>(std::move(parsed)), std::move(owner.hash), request.remote,
                   [respond, owner_token = std::move(owner.token)](std::variant<MatchView, HubError> created) {
                       if (auto* e = std::get_if<HubError>(&created)) return respond(problem_response(*e));
                       const auto& view = std::get<MatchView>(created);
                       net::HttpResponse response = json_response(201, with_owner_token(match_view_json(view, true), owner_token));
                       response.headers.emplace_back("Location", "/api/hns/matches/" + view.id);
                       respond(std::move(response));
                   });
    });
    router.add("GET", "/api/hns/matches/{id}", [&hub](const net::HttpRequest&, const net::PathParams& params, net::Respond respond) {
        auto view = hub.catalog().get(params[0]);
        if (!view) return respond(net::problem(404, "not-found", "Not found", "no match " + params[0]));
        respond(json_response(200, match_view_json(*view, true)));
    });
    router.add("GET", "/api/hns/matches/{id}/replay", [&hub](const net::HttpRequest&, const net::PathParams& params, net::Respond respond) {
        // Streamed from the file: a 64 MiB replay is never copied on a network thread.
        auto file = hub.catalog().replay_file(params[0]);
        if (auto* e = std::get_if<HubError>(&file)) return respond(problem_response(*e));
        const std::string disposition = "attachment; filename=\"" + params[0] + ".cowldhns\"";
        if (auto& path = std::get<std::string>(file); !path.empty()) {
            net::HttpResponse response{200, "application/octet-stream", "", {}, std::move(path)};
            response.headers.emplace_back("Content-Disposition", disposition);
            return respond(std::move(response));
        }
        // In a shared database the replay is a row's bytes: read off the network thread.
        hub.catalog().replay_bytes(params[0], [respond, disposition](std::variant<std::string, HubError> bytes) {
            if (auto* e = std::get_if<HubError>(&bytes)) return respond(problem_response(*e));
            net::HttpResponse response{200, "application/octet-stream", std::get<std::string>(std::move(bytes)), {}};
            response.headers.emplace_back("Content-Disposition", disposition);
            respond(std::move(response));
        });
    });
    router.add("DELETE", "/api/hns/matches/{id}", [&hub](const net::HttpRequest& request, const net::PathParams& params, net::Respond respond) {
        if (auto error = hub.controls().remove(params[0], net::bearer_token(request.authorization))) return respond(problem_response(*error));
        respond(no_content());
    });
}

}  // namespace hschool::server::hns
