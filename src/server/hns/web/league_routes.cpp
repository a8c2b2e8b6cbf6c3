#include "server/hns/web/league_routes.hpp"

#include <boost/json.hpp>

#include "net/credentials.hpp"
#include "server/hns/contract/decisions.hpp"
#include "server/hns/leagues/league_hub.hpp"
#include "server/hns/web/responses.hpp"

namespace hschool::server::hns {

namespace json = boost::json;

namespace {

json::object summary_object(const LeagueSummary& s) {
    json::object o;
    o["id"] = s.id;
    o["state"] = s.state;
    o["progress"] = json::object{{"played", s.played}, {"planned", s.planned}};
    o["variant"] = s.variant;
    o["matches"] = s.matches_per_pairing;
    o["seed"] = s.seed;
    json::array entrants;
    for (const auto& e : s.entrants) {
        json::object entrant{{"name", e.name}, {"kind", entrant_kind_text(e)}};
        if (is_prompt_entrant(e) && !s.model) entrant["fallback"] = kCauseNoCredentials;
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
std::string detail_json(const LeagueSummary& s) {
    std::string body = json::serialize(summary_object(s));
    body.pop_back();  // the object's closing brace
    return body + ",\"table\":" + (s.table ? *s.table : std::string("null")) + "}";
}

}  // namespace

void add_league_routes(net::HttpRouter& router, LeagueHub& leagues, bool owners) {
    router.add("POST", "/api/hns/leagues", [&leagues, owners](const net::HttpRequest& request, const net::PathParams&, net::Respond respond) {
        if (auto refused = refuse_unless_json(request)) return respond(std::move(*refused));
        auto parsed = parse_league_request(request.body, leagues.limits());
        if (auto* e = std::get_if<HubError>(&parsed)) return respond(problem_response(*e));
        NewOwner owner = new_owner(owners);
        const std::string owner_token = std::move(owner.token);
        auto created = leagues.create(std::get<LeagueRequest>(std::move(parsed)), std::move(owner.hash), request.remote);
        if (auto* e = std::get_if<HubError>(&created)) return respond(problem_response(*e));
        const auto& summary = std::get<LeagueSummary>(created);
        json::object body = summary_object(summary);
        if (!owner_token.empty()) body["ownerToken"] = owner_token;  // given once, never shown again
        net::HttpResponse response = json_response(201, json::serialize(body));
        response.headers.emplace_back("Location", "/api/hns/leagues/" + summary.id);
        respond(std::move(response));
    });
    router.add("GET", "/api/hns/leagues", [&leagues](const net::HttpRequest&, const net::PathParams&, net::Respond respond) {
        json::array list;
        for (const auto& s : leagues.list()) list.emplace_back(summary_object(s));
        respond(json_response(200, json::serialize(json::object{{"leagues", std::move(list)}})));
    });
    router.add("GET", "/api/hns/leagues/{id}", [&leagues](const net::HttpRequest&, const net::PathParams& params, net::Respond respond) {
        auto summary = leagues.get(params[0]);
        if (!summary) return respond(net::problem(404, "not-found", "Not found", "no league " + params[0]));
        respond(json_response(200, detail_json(*summary)));
    });
    router.add("DELETE", "/api/hns/leagues/{id}", [&leagues](const net::HttpRequest& request, const net::PathParams& params, net::Respond respond) {
        if (auto error = leagues.remove(params[0], net::bearer_token(request.authorization))) return respond(problem_response(*error));
        respond(no_content());
    });
}

}  // namespace hschool::server::hns
