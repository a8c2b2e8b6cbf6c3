#include "net/static_files.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string_view>

#include "net/limits.hpp"

namespace hschool::net {
namespace {

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

// The request path as a path relative to the root, or nothing when it could name anything else:
// NUL (the OS would cut the name there), backslashes, "..", and hidden segments (.git, .env) are refused.
std::optional<std::filesystem::path> relative_path_of(std::string_view request_path) {
    if (request_path.find('\0') != std::string_view::npos || request_path.find('\\') != std::string_view::npos) return std::nullopt;
    // "//etc/passwd" must stay under the root: leading slashes go, so the rest is never absolute.
    const auto first = request_path.find_first_not_of('/');
    if (first == std::string_view::npos) return std::filesystem::path("index.html");
    std::filesystem::path relative(request_path.substr(first));
    if (relative.has_root_path()) return std::nullopt;
    for (const auto& segment : relative) {
        const std::string name = segment.string();
        if (!name.empty() && name.front() == '.') return std::nullopt;  // ".", "..", ".git", ".env"
    }
    return relative;
}

bool is_under(const std::filesystem::path& root, const std::filesystem::path& file) {
    const auto [root_end, _] = std::mismatch(root.begin(), root.end(), file.begin(), file.end());
    return root_end == root.end();
}

}  // namespace

std::variant<std::filesystem::path, std::string> resolve_web_root(const std::filesystem::path& root) {
    if (root.empty()) return std::string("the path is empty");
    std::error_code ec;
    const auto status = std::filesystem::status(root, ec);
    if (status.type() == std::filesystem::file_type::not_found) return std::string("it does not exist");
    if (ec) return "it cannot be read: " + ec.message();
    if (!std::filesystem::is_directory(status)) return std::string("it is not a directory");
    auto canonical = std::filesystem::canonical(root, ec);
    if (ec) return "it cannot be resolved: " + ec.message();
    return canonical;
}

HttpHandler static_files(std::optional<std::filesystem::path> canonical_root) {
    return [root = std::move(canonical_root)](const HttpRequest& request, const PathParams&, Respond respond) {
        const auto not_found = [&] { respond(problem(404, "not-found", "Not found", "no file at " + request.path)); };
        const auto relative = root ? relative_path_of(request.path) : std::nullopt;
        if (!relative) return not_found();
        std::error_code ec;
        // canonical() follows symlinks, so a link inside the root that points out of it is caught below.
        auto file = std::filesystem::canonical(*root / *relative, ec);
        if (!ec && std::filesystem::is_directory(file, ec)) file = std::filesystem::canonical(file / "index.html", ec);
        if (ec || !is_under(*root, file) || !std::filesystem::is_regular_file(file, ec) ||
            std::filesystem::file_size(file, ec) > kMaxStaticFileBytes || ec) {
            return not_found();
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

}  // namespace hschool::net
