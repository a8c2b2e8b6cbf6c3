#pragma once
// Reading what a client sends to the schools API: the create body, ids, pack lists. Pure, so
// the fuzzer and the unit tests call it without a server.
#include <boost/json/value.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "net/http_types.hpp"
#include "sim/calendar/calendar.hpp"

namespace hschool::server {


// Everything a valid POST /api/schools body says, before packs and the map are resolved.
struct CreateRequest {
    std::string name;
    std::int64_t start_date_ms = sim::kDefaultStartDateMs;
    std::vector<std::string> extra_mods;
    const boost::json::value* map = nullptr;  // into the parsed body; null for the packs' default map
};

// The request, or the problem to answer with (invalid-body, invalid-name, invalid-start-date).
std::variant<CreateRequest, net::HttpResponse> read_create_request(const boost::json::value& body);

net::HttpResponse invalid_body(std::string_view detail);

// Why a school name is refused (blank, control characters, over 40 characters), or nothing.
std::optional<std::string> name_problem(const std::string& name);

// A positive i32 written in plain decimal digits, or nothing.
std::optional<std::int32_t> parse_school_id(std::string_view text);

// "annex, other,,x" → ["annex","other","x"].
std::vector<std::string> split_mods(std::string_view list);

}  // namespace hschool::server
