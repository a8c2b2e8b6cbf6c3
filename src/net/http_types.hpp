#pragma once
// HTTP requests and responses as plain values, so routes compile without Beast.
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hschool::net {

struct HttpRequest {
    std::string method;        // "GET", "POST", …
    std::string path;          // decoded path without the query
    std::string query;         // raw query string without '?'
    std::string content_type;  // media type without parameters, lower case
    std::string body;
    std::string origin;         // the Origin header; empty when absent (not a browser)
    std::string host;           // the Host header
    std::string authorization;  // the Authorization header, as sent
    std::string remote;         // the client's address, for per-address budgets
};

struct HttpResponse {
    unsigned status = 200;
    std::string content_type = "application/json";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string file = {};  // when set, the body is this file, streamed from disk (body is ignored)
};

using Respond = std::function<void(HttpResponse)>;

// An RFC 7807 problem with the extra `code` field the client switches on. Invalid UTF-8 in the
// detail is escaped, so the body is always valid JSON text.
HttpResponse problem(unsigned status, std::string_view code, std::string_view title, std::string_view detail);

// Valid UTF-8 kept as is; every byte that is not part of a well-formed sequence becomes the text \xHH.
std::string escape_invalid_utf8(std::string_view text);

// The value of one query parameter, form-decoded ('+' is a space); empty when absent.
std::string query_param(std::string_view query, std::string_view name);

// Percent-decoding of a path: '+' stays a plus; false on a malformed escape.
bool percent_decode(std::string_view in, std::string& out);

}  // namespace hschool::net
