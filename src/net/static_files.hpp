#pragma once
// Serves the built web client from one folder; never a file outside it, never a hidden file.
#include <filesystem>
#include <optional>
#include <string>
#include <variant>

#include "net/http_router.hpp"

namespace hschool::net {

// The canonical form of a usable web root (an existing directory), or why it cannot be used.
std::variant<std::filesystem::path, std::string> resolve_web_root(const std::filesystem::path& root);

// Files under `canonical_root`; with no root, every path is 404 (fail closed).
HttpHandler static_files(std::optional<std::filesystem::path> canonical_root);

}  // namespace hschool::net
