#include "schools_setup.hpp"

#include <boost/json.hpp>
#include <chrono>

#include "http_client.hpp"

namespace hschool::load {

namespace json = boost::json;

namespace {

constexpr int kHttpConflict = 409;  // school-limit-reached: someone else filled the slots

std::vector<std::int32_t> list_ids(const std::string& host, std::uint16_t port, int& max_schools, std::string& error) {
    const auto reply = http_request(host, port, "GET", "/api/schools");
    if (reply.status != 200) {
        error = "GET /api/schools answered " + std::to_string(reply.status);
        return {};
    }
    boost::system::error_code ec;
    const auto doc = json::parse(reply.body, ec);
    if (ec || !doc.is_object()) {
        error = "GET /api/schools: not a JSON object";
        return {};
    }
    const auto& root = doc.as_object();
    if (const auto* m = root.if_contains("maxSchools"); m && m->is_int64()) max_schools = static_cast<int>(m->as_int64());
    std::vector<std::int32_t> ids;
    if (const auto* list = root.if_contains("schools"); list && list->is_array()) {
        for (const auto& school : list->as_array()) {
            if (const auto* id = school.is_object() ? school.as_object().if_contains("id") : nullptr; id && id->is_int64()) {
                ids.push_back(static_cast<std::int32_t>(id->as_int64()));
            }
        }
    }
    return ids;
}

}  // namespace

SchoolsSetup ensure_schools(const std::string& host, std::uint16_t port, int wanted) {
    SchoolsSetup setup;
    int max_schools = wanted;
    setup.ids = list_ids(host, port, max_schools, setup.error);
    if (!setup.error.empty()) return setup;
    const int target = std::min(wanted, max_schools);
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count() % 100000;  // names stay unique across runs
    for (int i = static_cast<int>(setup.ids.size()); i < target; ++i) {
        json::object body{{"name", "Load " + std::to_string(stamp) + "-" + std::to_string(i + 1)}};
        const auto reply = http_request(host, port, "POST", "/api/schools", json::serialize(body));
        if (reply.status == kHttpConflict) break;
        if (reply.status != 201) {
            setup.error = "POST /api/schools answered " + std::to_string(reply.status) + ": " + reply.body;
            return setup;
        }
        ++setup.created;
    }
    if (setup.created > 0) setup.ids = list_ids(host, port, max_schools, setup.error);
    if (setup.ids.empty() && setup.error.empty()) setup.error = "the server has no schools and refused to create one";
    return setup;
}

}  // namespace hschool::load
