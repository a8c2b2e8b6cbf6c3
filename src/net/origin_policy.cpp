#include "net/origin_policy.hpp"

#include <algorithm>
#include <cctype>

namespace hschool::net {
namespace {

bool equal_ignoring_case(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

std::string_view trim_slash(std::string_view s) {
    while (!s.empty() && s.back() == '/') s.remove_suffix(1);
    return s;
}

}  // namespace

bool origin_allowed(std::string_view origin, std::string_view host, const std::vector<std::string>& allowed) {
    if (origin.empty()) return true;
    origin = trim_slash(origin);
    for (const auto& entry : allowed)
        if (equal_ignoring_case(origin, trim_slash(entry))) return true;
    // Same host as the request: the page was served by us (http or https, any proxy in front).
    const auto scheme_end = origin.find("://");
    if (scheme_end == std::string_view::npos || host.empty()) return false;
    const std::string_view scheme = origin.substr(0, scheme_end);
    if (!equal_ignoring_case(scheme, "http") && !equal_ignoring_case(scheme, "https")) return false;
    return equal_ignoring_case(origin.substr(scheme_end + 3), host);
}

}  // namespace hschool::net
