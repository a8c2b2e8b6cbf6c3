#include "server/hns_routes.hpp"

#include <boost/json.hpp>

#include "server/hns/hub.hpp"
#include "server/http_router.hpp"

namespace hschool::server {

namespace json = boost::json;

namespace {

HttpResponse json_text(unsigned status, std::string body) { return HttpResponse{status, "application/json", std::move(body), {}}; }

HttpResponse plain(unsigned status, std::string body, bool cors = false) {
    HttpResponse response{status, "text/plain; charset=utf-8", std::move(body), {{"Cache-Control", "no-cache"}}};
    if (cors) {  // the reference's admin panel calls the controls from other origins
        response.headers.emplace_back("Access-Control-Allow-Origin", "*");
        response.headers.emplace_back("Access-Control-Allow-Methods", "POST, OPTIONS");
        response.headers.emplace_back("Access-Control-Allow-Headers", "Content-Type");
    }
    return response;
}

HttpResponse from_error(const hns::HubError& e) {
    const char* title = e.status == 404   ? "Not found"
                        : e.status == 409 ? "Conflict"
                        : e.status == 503 ? "Service unavailable"
                                          : "Invalid request";
    return problem(e.status, e.code, title, e.detail);
}

std::string list_json(const std::vector<hns::MatchView>& views) {
    std::string body = "{\"matches\":[";
    for (std::size_t i = 0; i < views.size(); ++i) body += (i ? "," : "") + hns::match_view_json(views[i], false);
    return body + "]}";
}

void add_control(HttpRouter& router, hns::HnsHub& hub, const char* path, hns::ControlRoute route) {
    for (const char* method : {"POST", "OPTIONS"}) {
        router.add(method, path, [&hub, route, method](const HttpRequest& request, const PathParams&, Respond respond) {
            const auto decision = hub.control(route, method, request.query);
            respond(plain(static_cast<unsigned>(decision.status), decision.body, true));
        });
    }
}

}  // namespace

void add_hns_routes(HttpRouter& router, hns::HnsHub& hub) {
    router.add("GET", "/healthz", [](const HttpRequest&, const PathParams&, Respond respond) { respond(plain(200, "healthy")); });
    add_control(router, hub, "/control/restart", hns::ControlRoute::Restart);
    add_control(router, hub, "/control/kick", hns::ControlRoute::Kick);

    router.add("GET", "/api/hns/variants", [](const HttpRequest&, const PathParams&, Respond respond) {
        json::array names;
        for (const auto& name : hns::variant_names()) names.emplace_back(name);
        respond(json_text(200, json::serialize(json::object{{"variants", std::move(names)}})));
    });
    router.add("GET", "/api/hns/matches", [&hub](const HttpRequest&, const PathParams&, Respond respond) {
        respond(json_text(200, list_json(hub.list())));
    });
    router.add("POST", "/api/hns/matches", [&hub](const HttpRequest& request, const PathParams&, Respond respond) {
        if (!request.body.empty() && request.content_type != "application/json")
            return respond(problem(415, "unsupported-media-type", "Unsupported media type", "send the body as application/json"));
        auto parsed = hns::parse_create_request(request.body);
        if (auto* e = std::get_if<hns::HubError>(&parsed)) return respond(from_error(*e));
        auto created = hub.create(std::get<hns::CreateRequest>(parsed));
        if (auto* e = std::get_if<hns::HubError>(&created)) return respond(from_error(*e));
        const auto& view = std::get<hns::MatchView>(created);
        HttpResponse response = json_text(201, hns::match_view_json(view, true));
        response.headers.emplace_back("Location", "/api/hns/matches/" + view.id);
        respond(std::move(response));
    });
    router.add("GET", "/api/hns/matches/{id}", [&hub](const HttpRequest&, const PathParams& params, Respond respond) {
        auto view = hub.get(params[0]);
        if (!view) return respond(problem(404, "not-found", "Not found", "no match " + params[0]));
        respond(json_text(200, hns::match_view_json(*view, true)));
    });
    router.add("GET", "/api/hns/matches/{id}/replay", [&hub](const HttpRequest&, const PathParams& params, Respond respond) {
        auto replay = hub.replay(params[0]);
        if (auto* e = std::get_if<hns::HubError>(&replay)) return respond(from_error(*e));
        HttpResponse response{200, "application/octet-stream", std::get<std::string>(std::move(replay)), {}};
        response.headers.emplace_back("Content-Disposition", "attachment; filename=\"" + params[0] + ".cowldhns\"");
        respond(std::move(response));
    });
    router.add("DELETE", "/api/hns/matches/{id}", [&hub](const HttpRequest&, const PathParams& params, Respond respond) {
        if (auto error = hub.remove(params[0])) return respond(from_error(*error));
        respond(HttpResponse{204, "", "", {}});
    });
}

}  // namespace hschool::server
