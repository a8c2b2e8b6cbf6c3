#include "server/static_files.hpp"

#include <fstream>
#include <map>
#include <sstream>

namespace hschool::server {
namespace {

inline constexpr std::uintmax_t kMaxStaticFileBytes = 32 * 1024 * 1024;

std::string content_type_of(const std::filesystem::path& file) {
    static const std::map<std::string, std::string> types{
        {".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"}, {".css", "text/css; charset=utf-8"},
        {".json", "application/json"}, {".svg", "image/svg+xml"}, {".png", "image/png"},
        {".ico", "image/x-icon"}, {".woff2", "font/woff2"}, {".map", "application/json"},
        {".txt", "text/plain; charset=utf-8"}, {".webmanifest", "application/manifest+json"}};
    const auto found = types.find(file.extension().string());
    return found == types.end() ? "application/octet-stream" : found->second;
}

}  // namespace

HttpHandler static_files(std::filesystem::path root) {
    std::error_code root_error;
    auto canonical_root = std::filesystem::weakly_canonical(root, root_error);
    return [root = canonical_root](const HttpRequest& request, const PathParams&, Respond respond) {
        const auto not_found = [&] { respond(problem(404, "not-found", "Not found", "no file at " + request.path)); };
        if (request.path.find('\0') != std::string::npos || request.path.find("..") != std::string::npos) {
            not_found();
            return;
        }
        std::filesystem::path relative = request.path == "/" ? "index.html" : request.path.substr(1);
        std::error_code ec;
        auto file = std::filesystem::weakly_canonical(root / relative, ec);
        if (!ec && std::filesystem::is_directory(file, ec)) file /= "index.html";
        const auto [root_end, _] = std::mismatch(root.begin(), root.end(), file.begin(), file.end());
        if (ec || root_end != root.end() || !std::filesystem::is_regular_file(file, ec) ||
            std::filesystem::file_size(file, ec) > kMaxStaticFileBytes) {
            not_found();
            return;
        }
        std::ifstream in(file, std::ios::binary);
        std::ostringstream body;
        body << in.rdbuf();
        HttpResponse response{200, content_type_of(file), body.str(), {}};
        // Vite puts a content hash in asset names, so they never change; index.html may.
        response.headers.emplace_back("Cache-Control", request.path.starts_with("/assets/")
                                                           ? "public, max-age=31536000, immutable"
                                                           : "no-cache");
        respond(std::move(response));
    };
}

}  // namespace hschool::server
