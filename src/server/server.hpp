#pragma once
#include "server/options.hpp"

namespace hschool::server {

// Runs the server until SIGINT or SIGTERM; returns the process exit code.
int run_server(const ServerOptions& options);

}  // namespace hschool::server
