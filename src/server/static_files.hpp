#pragma once
// Serves the built web client from one folder; never a file outside it.
#include <filesystem>

#include "server/http_router.hpp"

namespace hschool::server {

HttpHandler static_files(std::filesystem::path root);

}  // namespace hschool::server
