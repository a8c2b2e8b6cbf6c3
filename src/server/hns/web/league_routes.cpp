#include "server/hns/web/league_routes.hpp"

#include <boost/json.hpp>

#include "net/credentials.hpp"
#include "server/hns/contract/decisions.hpp"
#include "server/hns/leagues/league_hub.hpp"
#include "server/hns/web/match_routes.hpp"

namespace hschool::server {

namespace json = boost::json;

namespace {

net::HttpResponse json_text(unsigned status, std::string body) { return net::HttpResponse{status, "application/json", std::move(body), {}}; }

json::object summary_object(const hns::LeagueSummary& s) {
    json::object o;
    o["id"] = s.id;
    o["state"] = s.state;
    o["progress"] = json::object{{"played", s.played}, {"planned", s.planned}};
    o["variant"] = s.variant;
    o["matches"] = s.matches_per_pairing;
    o["seed"] = s.seed;
    json::array entrants;
    for (const auto& e : s.entrants) {
        json::object entrant{{"name", e.name}, {"kind", hns::entrant_kind_text(e)}};
        if (hns::is_prompt_entrant(e) && !s.model) entrant["fallback"] = hns::kCauseNoCredentials;
        entrants.emplace_back(std::move(entrant));
    }
    o["entrants"] = std::move(entrants);
    o["createdAt"] = s.created_at_ms;
    o["endedAt"] = s.ended_at_ms > 0 ? json::value(s.ended_at_ms) : json::value(nullptr);
    o["error"] = s.error.empty() ? json::value(nullptr) : json::value(s.error);
    return o;
}

// The summary with "table": the fitted league.json object, spliced in as the league thread wrote it
// (a league's table is refitted off the network threads and never parsed again here).
std::string detail_json(const hns::LeagueSummary& s) {
    std::string body = json::serialize(summary_object(s));
    body.pop_back();  // the object's closing brace
    return body + ",\"table\":" + (s.table ? *s.table : std::string("null")) + "}";
}

}  // namespace

void add_hns_league_routes(net::HttpRouter& router, hns::LeagueHub& leagues, bool owners) {
    router.add("POST", "/api/hns/leagues", [&leagues, owners](const net::HttpRequest& request, const net::PathParams&, net::Respond respond) {
        // A cross-site form or text/plain "simple" request must not start leagues.
        if (request.content_type != "application/json")
            return respond(net::problem(415, "unsupported-media-type", "Unsupported media type", "send the body as application/json"));
        auto parsed = hns::parse_league_request(request.body, leagues.limits());
        if (auto* e = std::get_if<hns::HubError>(&parsed)) return respond(hub_error_response(*e));
        const std::string owner_token = owners ? net::new_token() : std::string();
        auto created = leagues.create(std::get<hns::LeagueRequest>(std::move(parsed)),
                                      owner_token.empty() ? std::string() : net::token_hash(owner_token), request.remote);
        if (auto* e = std::get_if<hns::HubError>(&created)) return respond(hub_error_response(*e));
        const auto& summary = std::get<hns::LeagueSummary>(created);
        json::object body = summary_object(summary);
        if (!owner_token.empty()) body["ownerToken"] = owner_token;  // given once, never shown again
        net::HttpResponse response = json_text(201, json::serialize(body));
        response.headers.emplace_back("Location", "/api/hns/leagues/" + summary.id);
        respond(std::move(response));
    });
    router.add("GET", "/api/hns/leagues", [&leagues](const net::HttpRequest&, const net::PathParams&, net::Respond respond) {
        json::array list;
        for (const auto& s : leagues.list()) list.emplace_back(summary_object(s));
        respond(json_text(200, json::serialize(json::object{{"leagues", std::move(list)}})));
    });
    router.add("GET", "/api/hns/leagues/{id}", [&leagues](const net::HttpRequest&, const net::PathParams& params, net::Respond respond) {
        auto summary = leagues.get(params[0]);
        if (!summary) return respond(net::problem(404, "not-found", "Not found", "no league " + params[0]));
        respond(json_text(200, detail_json(*summary)));
    });
    router.add("DELETE", "/api/hns/leagues/{id}", [&leagues](const net::HttpRequest& request, const net::PathParams& params, net::Respond respond) {
        if (auto error = leagues.remove(params[0], net::bearer_token(request.authorization))) return respond(hub_error_response(*error));
        respond(net::HttpResponse{204, "", "", {}});
    });
}

}  // namespace hschool::server
