#include "hns_rest.hpp"

#include <boost/json.hpp>
#include <chrono>
#include <optional>

#include "http_client.hpp"
#include "sim/hns/constants.hpp"

namespace hschool::load {

namespace json = boost::json;

namespace {

constexpr auto kRestTimeout = std::chrono::seconds(15);

std::optional<json::object> parse_object(const std::string& text) {
    json::error_code ec;
    auto v = json::parse(text, ec);
    if (ec || !v.is_object()) return std::nullopt;
    return v.as_object();
}

}  // namespace

Expected<std::string, std::string> create_match(const HnsPlan& plan, const std::string& variant, int bots, const char* config) {
    json::object body{{"variant", variant}, {"bots", bots}};
    if (config) body["config"] = json::parse(config);
    const auto reply = http_request(plan.host, plan.port, "POST", "/api/hns/matches", json::serialize(body), kRestTimeout);
    if (reply.status != 201)
        return unexpected("POST /api/hns/matches answered " + std::to_string(reply.status) + ": " + reply.body.substr(0, 300));
    auto o = parse_object(reply.body);
    if (!o || !o->contains("id") || !o->at("id").is_string()) return unexpected("POST /api/hns/matches: no id in " + reply.body.substr(0, 300));
    return std::string(o->at("id").as_string());
}

MatchState match_state(const HnsPlan& plan, const std::string& id) {
    MatchState m;
    const auto reply = http_request(plan.host, plan.port, "GET", "/api/hns/matches/" + id, {}, kRestTimeout);
    if (reply.status != 200) return m;
    if (auto o = parse_object(reply.body)) {
        if (const auto* t = o->if_contains("tick"); t && t->is_int64()) m.tick = t->as_int64();
        if (const auto* p = o->if_contains("phase"); p && p->is_string()) m.phase = std::string(p->as_string());
    }
    return m;
}

void delete_match(const HnsPlan& plan, const std::string& id) {
    http_request(plan.host, plan.port, "DELETE", "/api/hns/matches/" + id, {}, kRestTimeout);
}

std::vector<std::string> seat_targets(const std::string& id) {
    std::vector<std::string> out;
    for (int slot = 0; slot < sim::hns::kSeats; ++slot)
        out.push_back("/player?match=" + id + "&slot=" + std::to_string(slot) + "&name=s" + std::to_string(slot));
    return out;
}

}  // namespace hschool::load
