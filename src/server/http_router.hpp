#pragma once
// Routes by method and path pattern ("/api/schools/{id}"); 404 for unknown paths, 405 with an
// Allow header for known paths with the wrong method.
#include <string>
#include <vector>

#include "server/http_types.hpp"

namespace hschool::server {

using PathParams = std::vector<std::string>;  // the {…} segments, in order
using HttpHandler = std::function<void(const HttpRequest&, const PathParams&, Respond)>;

class HttpRouter {
public:
    void add(std::string method, std::string pattern, HttpHandler handler);
    // Answers requests no route matches; GET and HEAD only (the web client's files).
    void set_fallback(HttpHandler handler) { fallback_ = std::move(handler); }
    void handle(const HttpRequest& request, Respond respond) const;

private:
    struct Route {
        std::string method;
        std::vector<std::string> segments;
        HttpHandler handler;
    };
    std::vector<Route> routes_;
    HttpHandler fallback_;
};

}  // namespace hschool::server
