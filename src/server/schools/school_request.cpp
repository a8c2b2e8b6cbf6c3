#include "server/schools/limits.hpp"
#include "server/schools/school_request.hpp"

#include <boost/json.hpp>
#include <charconv>
#include <limits>
#include <utf8cpp/utf8.h>

#include "content/school_names.hpp"
#include "content/text_rules.hpp"
#include "sim/calendar/iso8601.hpp"

namespace hschool::server {

namespace json = boost::json;

net::HttpResponse invalid_body(std::string_view detail) { return net::problem(400, "invalid-body", "Invalid request body", detail); }

std::vector<std::string> split_mods(std::string_view list) {
    std::vector<std::string> out;
    while (!list.empty()) {
        const auto comma = list.find(',');
        std::string_view item = list.substr(0, comma);
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
        if (!item.empty()) out.emplace_back(item);
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
    }
    return out;
}

std::optional<std::string> name_problem(const std::string& name) {
    if (!utf8::is_valid(name.begin(), name.end())) return "name must be valid UTF-8";
    if (name.find_first_not_of(" \t\r\n\v\f") == std::string::npos) return "name must not be blank";
    const auto characters = static_cast<std::size_t>(utf8::distance(name.begin(), name.end()));
    if (characters > content::kMaxSchoolNameChars) {
        return "name has " + std::to_string(characters) + " characters; at most " +
               std::to_string(content::kMaxSchoolNameChars) + " are allowed";
    }
    // The same rule as map node names: no C0/C1 controls, no bidi embeddings, overrides or isolates.
    if (!content::is_clean_text(name)) return "name must not contain control or bidi characters";
    return std::nullopt;
}

std::optional<std::int32_t> parse_school_id(std::string_view text) {
    if (text.empty() || text.size() > 10 || text.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
    std::int64_t value = 0;
    std::from_chars(text.data(), text.data() + text.size(), value);
    if (value <= 0 || value > std::numeric_limits<std::int32_t>::max()) return std::nullopt;
    return static_cast<std::int32_t>(value);
}

std::variant<CreateRequest, net::HttpResponse> read_create_request(const json::value& body) {
    const auto* object = body.if_object();
    if (!object) return invalid_body("the body must be a JSON object");
    CreateRequest request;

    const auto* name = object->if_contains("name");
    if (!name || name->is_null()) return invalid_body("name is required");
    if (!name->is_string()) return invalid_body("name must be a string");
    request.name = std::string(name->as_string());
    if (auto why = name_problem(request.name)) return net::problem(400, "invalid-name", "Invalid name", *why);

    if (const auto* start = object->if_contains("startDate"); start && !start->is_null()) {
        if (!start->is_string()) return invalid_body("startDate must be a string");
        const auto parsed = sim::parse_iso8601(start->as_string());
        if (!parsed) {
            return net::problem(400, "invalid-start-date", "Invalid start date",
                           "startDate must be an ISO-8601 instant such as 2012-04-03T06:00:00Z");
        }
        if (!sim::is_valid_start_date(*parsed)) {
            return net::problem(400, "invalid-start-date", "Invalid start date", "startDate must fall within the years 1900-2999");
        }
        request.start_date_ms = *parsed;
    }

    if (const auto* mods = object->if_contains("modIds"); mods && !mods->is_null()) {
        const auto* list = mods->if_array();
        if (!list) return invalid_body("modIds must be an array of pack ids");
        if (list->size() > kMaxModIds) return invalid_body("modIds lists too many packs");
        for (const auto& id : *list) {
            if (!id.is_string()) return invalid_body("modIds must contain only strings");
            request.extra_mods.emplace_back(id.as_string());
        }
    }

    if (const auto* map = object->if_contains("map"); map && !map->is_null()) request.map = map;
    return request;
}

}  // namespace hschool::server
