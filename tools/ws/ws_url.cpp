#include "ws/ws_url.hpp"

namespace hschool::tools::ws {

Expected<WsUrl, std::string> parse_ws_url(std::string_view url) {
    constexpr std::string_view kScheme = "ws://";
    if (!url.starts_with(kScheme)) return unexpected(std::string("the URL must start with ws:// (wss:// is not supported)"));
    const std::string_view rest = url.substr(kScheme.size());
    const auto slash = rest.find('/');
    const std::string_view authority = rest.substr(0, slash);
    WsUrl out;
    if (slash != std::string_view::npos) out.target = std::string(rest.substr(slash));
    const auto colon = authority.rfind(':');
    if (colon != std::string_view::npos && authority.find(']') == std::string_view::npos) {
        out.host = std::string(authority.substr(0, colon));
        out.port = std::string(authority.substr(colon + 1));
        out.port_given = true;
    } else {
        out.host = std::string(authority);
    }
    if (!out.host.empty() && out.host.front() == '[' && out.host.back() == ']') out.host = out.host.substr(1, out.host.size() - 2);
    if (out.host.empty() || out.port.empty()) return unexpected(std::string("the URL names no host"));
    return out;
}

}  // namespace hschool::tools::ws
