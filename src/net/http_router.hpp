#pragma once
// Routes by method and path pattern ("/api/schools/{id}"); 404 for unknown paths, 405 with an
// Allow header for known paths with the wrong method.
#include <optional>
#include <string>
#include <vector>

#include "net/http_types.hpp"

namespace hschool::net {

using PathParams = std::vector<std::string>;  // the {…} segments, in order
using HttpHandler = std::function<void(const HttpRequest&, const PathParams&, Respond)>;
// Looks at a request before its handler; an answer refuses it.
using RequestGuard = std::function<std::optional<HttpResponse>(const HttpRequest&)>;

class HttpRouter {
public:
    void add(std::string method, std::string pattern, HttpHandler handler);
    // Answers requests no route matches; GET and HEAD only (the web client's files).
    void set_fallback(HttpHandler handler) { fallback_ = std::move(handler); }
    // Runs before every route whose method may change state (all but GET, HEAD and OPTIONS).
    void set_write_guard(RequestGuard guard) { write_guard_ = std::move(guard); }
    void handle(const HttpRequest& request, Respond respond) const;

private:
    struct Route {
        std::string method;
        std::vector<std::string> segments;
        HttpHandler handler;
    };
    std::vector<Route> routes_;
    HttpHandler fallback_;
    RequestGuard write_guard_;
};

}  // namespace hschool::net
