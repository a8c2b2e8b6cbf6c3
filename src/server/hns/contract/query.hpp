#pragma once
// The query string of an upgrade request, decoded (percent escapes and '+'), as the reference's
// queryParams gives it. Peer input: errors are values.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "server/hns/contract/expected.hpp"

namespace hschool::server::hns {

struct QueryParams {
    std::vector<std::pair<std::string, std::string>> items;  // in request order
    bool has(std::string_view key) const;
    // The first value for `key`, or "" (the reference's getOrDefault(key, "")).
    std::string get(std::string_view key) const;
};

// The match a socket, a page or a control means: ?match=ID, else `default_id` (the default match).
std::string match_of(const QueryParams& query, const std::string& default_id);

// `query` is the part after '?', without the '#' fragment. Fails on an oversized query or value,
// a bad percent escape, or a decoded NUL.
Expected<QueryParams> parse_query(std::string_view query);

}  // namespace hschool::server::hns
