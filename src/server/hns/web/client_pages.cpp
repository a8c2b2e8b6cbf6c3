#include "server/hns/web/client_pages.hpp"

#include <string>
#include <string_view>

#include "server/hns/hub/socket_admission.hpp"
#include "server/hns/web/responses.hpp"

namespace hschool::server::hns {

namespace {

inline constexpr std::size_t kMaxPageMatchIdChars = 64;  // the client's own match id pattern

// Only a match id the client would route to goes into the page; anything else becomes "".
std::string safe_match_id(const std::string& id) {
    if (id.size() > kMaxPageMatchIdChars) return {};
    for (const char c : id)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) return {};
    return id;
}

std::string page_meta(std::string_view view, const std::string& match) {
    return "<meta name=\"hschool-page\" content=\"" + std::string(view) + "\" data-match=\"" + safe_match_id(match) + "\">";
}

// Served when no built client is installed: the probes still get their 2xx, a person a hint.
std::string fallback_page(std::string_view view, const std::string& match) {
    return "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">" + page_meta(view, match) +
           "<title>HSchool hide-and-seek</title></head><body><p>HSchool hide-and-seek server: the web client is not "
           "installed here (--web-root).</p></body></html>\n";
}

void serve_page(const net::HttpHandler& files, const net::HttpRequest& request, std::string_view view, const std::string& match,
                const net::Respond& respond) {
    net::HttpRequest index = request;
    index.path = "/index.html";
    index.query.clear();
    files(index, {}, [respond, view = std::string(view), match](net::HttpResponse response) {
        if (response.status != 200 || !response.file.empty()) {
            return respond(net::HttpResponse{200, "text/html; charset=utf-8", fallback_page(view, match), {{"Cache-Control", "no-cache"}}});
        }
        const auto head_end = response.body.find("</head>");
        const std::string meta = page_meta(view, match);
        if (head_end == std::string::npos) response.body.insert(0, meta);
        else response.body.insert(head_end, meta);
        response.headers = {{"Cache-Control", "no-cache"}};
        respond(std::move(response));
    });
}

}  // namespace

void add_client_pages(net::HttpRouter& router, SocketAdmission& admission, net::HttpHandler files) {
    router.add("GET", "/client/player", [&admission, files](const net::HttpRequest& request, const net::PathParams&, net::Respond respond) {
        // The same 403 (and 409) texts as the /player upgrade; the page itself asks for no seat.
        if (auto refused = admission.check_player_page(request.query)) return respond(rejection_response(std::move(*refused)));
        serve_page(files, request, "player", admission.page_match(request.query), respond);
    });
    router.add("GET", "/client/global", [&admission, files](const net::HttpRequest& request, const net::PathParams&, net::Respond respond) {
        serve_page(files, request, "global", admission.page_match(request.query), respond);
    });
    router.add("GET", "/client/replay", [&admission, files](const net::HttpRequest& request, const net::PathParams&, net::Respond respond) {
        serve_page(files, request, "replay", admission.replay_mode() ? std::string() : admission.page_match(request.query), respond);
    });
}

}  // namespace hschool::server::hns
