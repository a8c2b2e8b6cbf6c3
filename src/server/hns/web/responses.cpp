#include "server/hns/web/responses.hpp"

#include "net/credentials.hpp"

namespace hschool::server::hns {

net::HttpResponse json_response(unsigned status, std::string body) { return net::HttpResponse{status, "application/json", std::move(body), {}}; }

net::HttpResponse plain_response(unsigned status, std::string body) {
    return net::HttpResponse{status, "text/plain; charset=utf-8", std::move(body), {{"Cache-Control", "no-cache"}}};
}

net::HttpResponse no_content() { return net::HttpResponse{204, "", "", {}}; }

net::HttpResponse problem_response(const HubError& e) {
    const char* title = e.status == 401   ? "Unauthorized"
                        : e.status == 403 ? "Forbidden"
                        : e.status == 429 ? "Too many requests"
                        : e.status == 404 ? "Not found"
                        : e.status == 409 ? "Conflict"
                        : e.status == 503 ? "Service unavailable"
                                          : "Invalid request";
    net::HttpResponse response = net::problem(e.status, e.code, title, e.detail);
    if (e.status == 401) response.headers.emplace_back("WWW-Authenticate", "Bearer");
    if (e.retry_after_seconds > 0) response.headers.emplace_back("Retry-After", std::to_string(e.retry_after_seconds));
    return response;
}

net::HttpResponse rejection_response(Rejection refused) {
    net::HttpResponse response = plain_response(static_cast<unsigned>(refused.status), std::move(refused.body));
    if (refused.retry_after_seconds > 0) response.headers.emplace_back("Retry-After", std::to_string(refused.retry_after_seconds));
    return response;
}

std::optional<net::HttpResponse> refuse_unless_json(const net::HttpRequest& request) {
    if (request.content_type == "application/json") return std::nullopt;
    return net::problem(415, "unsupported-media-type", "Unsupported media type", "send the body as application/json");
}

NewOwner new_owner(bool owners) {
    if (!owners) return {};
    NewOwner owner;
    owner.token = net::new_token();
    owner.hash = net::token_hash(owner.token);
    return owner;
}

}  // namespace hschool::server::hns
