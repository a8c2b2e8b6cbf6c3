#include "server/hns/contract/match_request.hpp"

#include <boost/json.hpp>

#include <random>

#include "sim/hns/constants.hpp"

namespace hschool::server::hns {

namespace json = boost::json;

const std::vector<std::string>& variant_names() {
    static const std::vector<std::string> names{"default", "warren", "long-hall", "certification"};
    return names;
}

std::int64_t draw_seed() {
    std::random_device device;
    return static_cast<std::int64_t>(device() & kDrawnSeedMask);
}

std::variant<CreateRequest, HubError> parse_create_request(std::string_view body) {
    CreateRequest request;
    if (body.empty()) return request;
    json::error_code ec;
    const json::value parsed = json::parse(body, ec);
    if (ec || !parsed.is_object()) return HubError{400, "invalid-json", "the body must be a JSON object"};
    for (const auto& [key, value] : parsed.as_object()) {
        if (key == "variant") {
            if (!value.is_string()) return HubError{400, "invalid-field", "variant: must be a string"};
            request.variant = std::string(value.as_string());
        } else if (key == "bots") {
            // Bots fill seats: at most every one of them.
            if (!value.is_int64() || value.as_int64() < 0 || value.as_int64() > sim::hns::kSeats)
                return HubError{400, "invalid-field", "bots: must be an integer from 0 to " + std::to_string(sim::hns::kSeats)};
            request.bots = static_cast<int>(value.as_int64());
        } else if (key == "config") {
            if (!value.is_object()) return HubError{400, "invalid-field", "config: must be a JSON object"};
            request.config_json = json::serialize(value);
        } else {
            return HubError{400, "unknown-field", std::string(key) + ": unknown key (variant, bots, config)"};
        }
    }
    return request;
}

}  // namespace hschool::server::hns
