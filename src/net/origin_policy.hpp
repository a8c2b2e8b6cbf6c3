#pragma once
// Which web pages may open a WebSocket to us. Browsers always send Origin; a page elsewhere must
// not drive a visitor's browser into our game, so only our own host and listed origins pass.
#include <string>
#include <string_view>
#include <vector>

namespace hschool::net {

// origin: the Origin header (empty when absent: not a browser, allowed); host: the Host header;
// allowed: extra origins such as "https://play.example.org" (scheme://host[:port], no path).
bool origin_allowed(std::string_view origin, std::string_view host, const std::vector<std::string>& allowed);

}  // namespace hschool::net
