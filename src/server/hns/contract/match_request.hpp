#pragma once
// The body of POST /api/hns/matches and the REST's error values: peer input, parsed without
// touching the sim or the files (fuzzed: fuzz/fuzz_hns_requests.cpp).
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace hschool::server::hns {

// An HTTP-style error for the REST: status, problem code, detail naming the key.
struct HubError {
    unsigned status = 400;
    std::string code;
    std::string detail;
    int retry_after_seconds = 0;  // 429/503: when to try again
};

struct CreateRequest {
    std::string variant = "default";
    std::string config_json;  // "" or a JSON object of config keys over the variant
    int bots = 0;
};
// Parses a POST body; the error names the key at fault.
std::variant<CreateRequest, HubError> parse_create_request(std::string_view body);

// A seed for a match or a league that pins none: 31 random bits, a non-negative int everywhere.
inline constexpr std::uint32_t kDrawnSeedMask = 0x7FFFFFFF;
std::int64_t draw_seed();

// The variants a match can be made from, in the order the client lists them.
const std::vector<std::string>& variant_names();

}  // namespace hschool::server::hns
