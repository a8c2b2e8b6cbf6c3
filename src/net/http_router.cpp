#include "net/http_router.hpp"

#include <string_view>

namespace hschool::net {
namespace {

std::vector<std::string> split_path(std::string_view path) {
    std::vector<std::string> segments;
    while (!path.empty()) {
        if (path.front() == '/') {
            path.remove_prefix(1);
            continue;
        }
        const auto slash = path.find('/');
        segments.emplace_back(path.substr(0, slash));
        if (slash == std::string_view::npos) break;
        path.remove_prefix(slash);
    }
    return segments;
}

bool match(const std::vector<std::string>& pattern, const std::vector<std::string>& path, PathParams& params) {
    if (pattern.size() != path.size()) return false;
    params.clear();
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i].size() > 2 && pattern[i].front() == '{' && pattern[i].back() == '}') {
            params.push_back(path[i]);
        } else if (pattern[i] != path[i]) {
            return false;
        }
    }
    return true;
}

}  // namespace

void HttpRouter::add(std::string method, std::string pattern, HttpHandler handler) {
    routes_.push_back({std::move(method), split_path(pattern), std::move(handler)});
}

void HttpRouter::handle(const HttpRequest& request, Respond respond) const {
    const auto path = split_path(request.path);
    PathParams params;
    std::string allowed;
    for (const auto& route : routes_) {
        if (!match(route.segments, path, params)) continue;
        if (route.method == request.method || (request.method == "HEAD" && route.method == "GET")) {
            const bool reads = request.method == "GET" || request.method == "HEAD" || request.method == "OPTIONS";
            if (!reads && write_guard_) {
                if (auto refusal = write_guard_(request)) return respond(std::move(*refusal));
            }
            route.handler(request, params, std::move(respond));
            return;
        }
        if (allowed.find(route.method) == std::string::npos) allowed += (allowed.empty() ? "" : ", ") + route.method;
    }
    if (!allowed.empty()) {
        auto response = problem(405, "method-not-allowed", "Method not allowed",
                                request.method + " is not allowed on " + request.path + "; use " + allowed);
        response.headers.emplace_back("Allow", allowed);
        respond(std::move(response));
        return;
    }
    const bool is_api = request.path == "/api" || request.path.starts_with("/api/") || request.path == "/health" ||
                        request.path == "/metrics" || request.path.starts_with("/ws/");
    if (fallback_ && !is_api) {
        if (request.method == "GET" || request.method == "HEAD") {
            fallback_(request, params, std::move(respond));
            return;
        }
        auto response = problem(405, "method-not-allowed", "Method not allowed", "only GET and HEAD serve files");
        response.headers.emplace_back("Allow", "GET, HEAD");
        respond(std::move(response));
        return;
    }
    respond(problem(404, "not-found", "Not found", "no route for " + request.path));
}

}  // namespace hschool::net
