#pragma once
// The close codes the transport sends (and a game closes with): RFC 6455's numbers, defined once in
// protocol/close_codes.hpp and named here as the transport's code says them (close_code::kGoingAway).
#include "protocol/close_codes.hpp"

namespace hschool::net {

namespace close_code = protocol::close_code;

}  // namespace hschool::net
